// How a reference is shown on the document form: labels of Nota 10 / Nota 9 codes, and the editable
// block (purchase invoices always; new invoices and tickets optionally) with its allowed options.
import { referenceCodes, referenceDocumentTypes } from "../../db/seed/reference-data.ts";
import type { ReferenceFormValues, ReferenceView } from "../domain/document-source.ts";

export const docTypeLabel = (code: string) => referenceDocumentTypes.find((t) => t.code === code)?.name ?? code;
export const codeLabel = (code: string) => referenceCodes.find((c) => c.code === code)?.name ?? code;

export function editableReferenceView(v: ReferenceFormValues, allowed: { docTypes: readonly string[]; codes: readonly string[] }): ReferenceView {
  return {
    mode: "editable",
    docType: v.docType,
    docTypeLabel: docTypeLabel(v.docType),
    number: v.number,
    date: v.date,
    code: v.code,
    codeLabel: codeLabel(v.code),
    reason: v.reason,
    docTypeOptions: allowed.docTypes.map((c) => ({ value: c, label: `${c} — ${docTypeLabel(c)}` })),
    codeOptions: allowed.codes.map((c) => ({ value: c, label: `${c} — ${codeLabel(c)}` })),
  };
}
