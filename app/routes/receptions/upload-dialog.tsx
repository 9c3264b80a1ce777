// /message-receptors/upload — the 'Subir Nuevo XML' dialog over the list (spec part 2 §2, §5; issue
// 12 item 2). See upload-route.server.ts.
import type { Route } from "./+types/upload-dialog";
import { UploadForm } from "../../components/reception-forms.tsx";
import { RouteDialog } from "../../components/route-dialog.tsx";
import type { UploadState } from "../../server/receptions/upload.server.ts";
import { uploadAction, uploadLoader } from "./upload-route.server.ts";
import { ReceptionError } from "./reception-error.tsx";

export const loader = (args: Route.LoaderArgs) => uploadLoader(args);
export const action = (args: Route.ActionArgs) => uploadAction(args);

export function meta() {
  return [{ title: "Subir Nuevo XML" }];
}

export default function UploadDialog({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData as UploadState | undefined;
  return (
    <RouteDialog title="Subir Nuevo XML" closeTo={loaderData.back} wide data="reception-upload">
      <UploadForm
        cancel={loaderData.back}
        lists={loaderData.lists}
        values={{ ...loaderData.lists.defaults, ...(state?.values ?? {}) }}
        errors={state?.errors ?? {}}
        kept={state?.kept ?? null}
        outcomes={state?.outcomes ?? []}
        notice={state?.notice}
      />
    </RouteDialog>
  );
}

export const ErrorBoundary = ReceptionError;
