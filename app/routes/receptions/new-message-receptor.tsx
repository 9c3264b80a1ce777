// /new-message-receptor — the standalone upload page (spec part 2 §2: it returns to
// message-receptors). The same form and use-case as the list's 'Subir Nuevo XML' dialog.
import type { Route } from "./+types/new-message-receptor";
import { UploadForm } from "../../components/reception-forms.tsx";
import type { UploadState } from "../../server/receptions/upload.server.ts";
import { uploadAction, uploadLoader } from "./upload-route.server.ts";
import { ReceptionError } from "./reception-error.tsx";

export const loader = (args: Route.LoaderArgs) => uploadLoader(args);
export const action = (args: Route.ActionArgs) => uploadAction(args);

export function meta() {
  return [{ title: "Nuevo mensaje receptor" }];
}

export default function NewMessageReceptor({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData as UploadState | undefined;
  return (
    <div className="card mx-auto max-w-2xl">
      <h1 className="mb-4 text-lg font-semibold">Subir Nuevo XML</h1>
      <UploadForm
        cancel={loaderData.back}
        lists={loaderData.lists}
        values={{ ...loaderData.lists.defaults, ...(state?.values ?? {}) }}
        errors={state?.errors ?? {}}
        kept={state?.kept ?? null}
        outcomes={state?.outcomes ?? []}
        notice={state?.notice}
      />
    </div>
  );
}

export const ErrorBoundary = ReceptionError;
