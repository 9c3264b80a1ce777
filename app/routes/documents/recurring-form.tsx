// /recurring-new, /new-recurring/invoice/:id and /edit-recurring/recurring/:id: the document form's
// loader and action (document-form.tsx; recurring-form.server.ts stores a template instead of
// issuing) and the shared form with the recurrence block, which only these screens load.
import type { Route } from "./+types/recurring-form";
import { DocumentFormView } from "../../components/document-form-view.tsx";
import { RecurrenceBlock } from "../../components/recurrence-block.tsx";
import { ReferenceBlock, SourceFacts } from "../../components/source-blocks.tsx";

import { formState, useFormKey } from "./document-form.tsx";

export { action, ErrorBoundary, loader, shouldRevalidate } from "./document-form.tsx";

export default function RecurringForm({ loaderData, actionData }: Route.ComponentProps) {
  const state = formState(loaderData, actionData);
  return (
    <DocumentFormView
      key={useFormKey(state)}
      state={state}
      recurrenceBlock={state.recurrence && <RecurrenceBlock values={state.recurrence} errors={state.errors} />}
      facts={state.source && <SourceFacts view={state.source} />}
      references={state.source && <ReferenceBlock view={state.source} errors={state.errors} />}
    />
  );
}
