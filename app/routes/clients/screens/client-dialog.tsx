// The new/edit client popup of the clients and providers lists (/clients?new=1, ?edit=ID): the
// client form in its dialog mode. A screen of its own (docs/decisions/169) that the page loads only
// when the URL opens it (docs/decisions/155).
import { ClientForm, type ClientFormViewState } from "../../../components/client-form.tsx";
import { clientFormKey } from "../../../domain/client-texts.ts";

export function ClientDialog(props: { state: ClientFormViewState; action: string; cancelTo: string; title: string }) {
  // A new answer from the server (another client, the same one re-rendered) starts the form afresh.
  return <ClientForm key={clientFormKey(props.state)} {...props} />;
}
