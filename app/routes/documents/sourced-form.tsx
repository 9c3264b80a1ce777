// The prefilled screens of the document form: /new-quotation, /edit-quotation/…, /new-note/…,
// /new-clone/… and /new-simple. Their loader and action are the document form's
// (document-form.tsx, document-source.server.ts); this module adds the source's facts and locked
// references, which /new-invoice and /new-ticket do not load (docs/decisions/096).
import type { Route } from "./+types/sourced-form";
import { DocumentFormView } from "../../components/document-form-view.tsx";
import { ReferenceBlock, SourceFacts } from "../../components/source-blocks.tsx";
import { formState, useFormKey } from "./document-form.tsx";

export { action, ErrorBoundary, loader, shouldRevalidate } from "./document-form.tsx";

export default function SourcedForm({ loaderData, actionData }: Route.ComponentProps) {
  const state = formState(loaderData, actionData);
  const source = state.source;
  return (
    <DocumentFormView
      key={useFormKey(state)}
      state={state}
      facts={source && <SourceFacts view={source} />}
      references={source && <ReferenceBlock view={source} errors={state.errors} />}
    />
  );
}
