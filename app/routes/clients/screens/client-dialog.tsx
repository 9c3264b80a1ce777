// The new/edit client dialog over the clients and providers lists (/clients?new=1, ?edit=ID): the
// client form in its dialog mode. A screen of its own (docs/decisions/169) that the list loads only
// when the URL opens it (docs/decisions/155).
import { ClientForm, type ClientFormViewState } from "../../../components/client-form.tsx";

export function ClientDialog(props: { state: ClientFormViewState; action: string; cancelTo: string; title: string }) {
  return <ClientForm {...props} />;
}
