// Issuing a document (spec part 2 §2–§5; issue 5 item 3): ONE transaction allocates the consecutive
// (upsert … RETURNING on the counter row: never max()+1), builds the clave, computes and stores the
// totals (the same draftTotals the form shows), builds, validates (rules + XSD), signs (XAdES with
// the company key) and stores the signed bytes, the lines, the references and the client snapshot,
// and enqueues the submission. Any validation failure rolls everything back (the counter included)
// and returns the Spanish errors keyed by form field. docs/decisions/070-issuing-transaction.md.
import { randomBytes as nodeRandomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../../db/client.ts";
import { clients, companies, documentLines, documentReferences, documents } from "../../db/schema/index.ts";
import { enqueue } from "../../jobs/runner.ts";
import { buildClave, buildConsecutivo, DOC_TYPE_CODES, randomSecurityCode, type IdType } from "../hacienda/clave.ts";
import { buildXml, documentTotals } from "../hacienda/build.ts";
import type { SigningKey } from "../hacienda/p12.ts";
import { validateDocument } from "../hacienda/validate.ts";
import type { CompiledSchemaSet } from "../hacienda/xsd/index.ts";
import { TotalsError } from "../domain/totals.ts";
import { buyerOf, checkDraft, draftToComprobante, draftTotals, fieldOfPath, lineRate, summaryOf, type DocumentDraft, type FieldError, type IssuerSnapshot, type PartySnapshot } from "../domain/document-draft.ts";
import { addDays, costaRicaDay } from "../domain/document-status.ts";
import { companyHacienda, signingKeyFor, SigningKeyError } from "./signing-key.server.ts";
import { applyNoteToReferenced } from "./receivables.server.ts";
import { takeGivenNumber, takeNextNumber, type CounterKey } from "./counters.server.ts";
import { signOffThread } from "./engine/pool.server.ts";

export type IssueResult =
  | { ok: true; documentId: number; kind: string; number: number; clave: string | null; consecutivo: string | null; status: string; total: string }
  | { ok: false; errors: FieldError[] };

export interface IssueInput {
  companyId: number;
  userId: number | null;
  draft: DocumentDraft;
  now: Date;
  schemaSet: CompiledSchemaSet;
  /** The company's signing key (default: signing-key.server.ts, cached per company). Resolved before the transaction. */
  keyFor?: (companyId: number) => Promise<SigningKey>;
  /** Injected randomness for the security code (default node:crypto). */
  randomBytes?: (n: number) => Uint8Array;
  /** Set by the recurring job: the recurring document and the period this issue belongs to. */
  recurring?: { id: number; period: string };
  replacesDocumentId?: number | null;
  /** An invoice converted from this quotation (documents.quotation_id is unique: once). */
  quotationId?: number | null;
  /** The integrator's reference (API): shown as 'N° de control'. */
  controlNumber?: string | null;
  /**
   * The consecutive the integrator supplies (API with modo_consecutive_api): it must be exactly the
   * counter's next number — a smaller one was used already, a larger one would leave a gap.
   */
  sequence?: number | null;
  /**
   * The point of sale that numbers it (API: each cash register of a chain its own terminal, so each
   * has its own gapless counter); default the company's branch and terminal (Configuración › Hacienda).
   */
  branch?: number | null;
  terminal?: number | null;
}

/** Thrown inside the transaction to roll it back with the errors. */
export class IssueValidationError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => e.message).join(" "));
  }
}

const COUNTER_TYPE: Record<string, string> = { fe: DOC_TYPE_CODES.fe, te: DOC_TYPE_CODES.te, nc: DOC_TYPE_CODES.nc, nd: DOC_TYPE_CODES.nd, fec: DOC_TYPE_CODES.fec, qt: "qt" };
/** TipoDocIR of our own documents (Nota 10); notes on an FEC use 17 (NC) / 18 (ND). */
const REF_DOC_TYPE: Record<string, string> = { fe: "01", nd: "02", nc: "03", te: "04" };
export const NOTE_SOURCES = new Set(["fe", "te", "fec"]);

export const ISSUE_MESSAGES = {
  clientNotFound: "El cliente seleccionado no existe en esta empresa.",
  referenceNotFound: "El documento de referencia no existe en esta empresa.",
  referenceKind: "Solo se pueden emitir notas de facturas, tiquetes o facturas de compra.",
  noActivity: "La empresa no tiene actividad económica: indíquela en los datos de la empresa.",
  sequenceUsed: (n: number, next: number) => `El consecutivo ${n} ya fue usado: el siguiente es ${next}.`,
  sequenceGap: (n: number, next: number) => `El consecutivo ${n} dejaría un hueco en la numeración: el siguiente es ${next}.`,
} as const;

export function idTypeOf(n: number | null | undefined): IdType {
  return String(n ?? 1).padStart(2, "0") as IdType;
}

export async function companySnapshot(db: DbOrTx, companyId: number) {
  const [c] = await db.select().from(companies).where(eq(companies.id, companyId));
  if (!c) throw new Error(`company ${companyId} not found`);
  const issuer: PartySnapshot = {
    name: c.name,
    idType: idTypeOf(c.identificationTypeId),
    idNumber: c.identification,
    tradeName: c.fantasyName,
    email: c.email,
    phone: c.phone,
    province: c.provinceNumber,
    canton: c.cantonNumber,
    district: c.districtNumber,
    address: c.otherSigns,
    countryId: c.countryId,
    activityCode: c.economicActivityCode,
  };
  // What the document prints about the company, frozen with it (decision 162).
  const issuerSnapshot: IssuerSnapshot = { ...issuer, invoiceFormat: c.invoiceFormat === "2" ? "2" : "1" };
  return { company: c, issuer, issuerSnapshot };
}

export async function clientSnapshot(db: DbOrTx, companyId: number, clientId: number): Promise<PartySnapshot | null> {
  const [c] = await db
    .select()
    .from(clients)
    .where(and(eq(clients.id, clientId), eq(clients.companyId, companyId)));
  if (!c) return null;
  return {
    name: c.name,
    idType: idTypeOf(c.identificationTypeId),
    idNumber: c.identification,
    tradeName: c.comercialName,
    email: c.email,
    phone: c.phone,
    province: c.provinceNumber,
    canton: c.cantonNumber,
    district: c.districtNumber,
    barrio: c.barrio,
    address: c.address,
    countryId: c.countryId,
    activityCode: c.economicActivityCode,
    generic: c.generic,
  };
}

type Totals = ReturnType<typeof draftTotals>;

/**
 * The stored columns a draft and its totals determine: client, currency, commercial terms, the
 * draft itself and the totals. Issuing and the quotation edit (quotations.server.ts) both write them.
 */
export function draftColumns(draft: DocumentDraft, totals: Totals, client: PartySnapshot | null, issuer: IssuerSnapshot, now: Date) {
  const summary = summaryOf(totals);
  return {
    clientId: draft.clientId ?? null,
    currencyId: draft.currency === "USD" ? 1 : 2,
    exchangeRate: draft.currency === "USD" ? draft.exchangeRate : "1",
    totalComprobante: summary.total,
    saleCondition: draft.saleCondition,
    creditDays: draft.saleCondition === "02" ? (draft.creditDays ?? null) : null,
    expirationDate: draft.saleCondition === "02" && draft.creditDays ? addDays(costaRicaDay(now), draft.creditDays) : null,
    payments: totals.payments,
    note: draft.note ?? null,
    terms: draft.terms ?? null,
    emails: draft.emails ?? [],
    remindPayment: draft.kind === "fe" && !!draft.remindPayment,
    clientSnapshot: client,
    issuerSnapshot: issuer,
    draft,
    subtotal: summary.subtotal,
    discount: summary.discount,
    tax: summary.tax,
    exonerated: summary.exonerated,
    ivaDevuelto: summary.ivaDevuelto,
    otherCharges: summary.otherCharges,
    totals: totals.resumen,
  };
}

/** The stored lines of a document (position from 1), with each line's computed amounts. */
export function lineRows(companyId: number, documentId: number, draft: DocumentDraft, totals: Totals) {
  return draft.lines.map((l, i) => {
    const t = totals.lines[i];
    return {
      companyId,
      documentId,
      position: i + 1,
      itemId: l.itemId ?? null,
      code: l.code ?? null,
      cabys: l.cabys ?? null,
      description: l.description,
      quantity: l.quantity,
      unit: l.unit,
      unitPrice: l.unitPrice,
      discountPercent: l.discountPercent || "0",
      taxCode: l.tax.code ?? "01",
      tarifaCode: l.tax.tarifaCode ?? null,
      taxRate: lineRate(l),
      exoneration: l.exoneration ?? null,
      subtotal: t.montoTotal,
      discount: t.discounts.reduce((a, d) => a + Number(d.amount), 0).toFixed(5),
      tax: t.impuestoNeto,
      exonerated: t.taxes.reduce((a, x) => a + Number(x.exoneration?.monto ?? 0), 0).toFixed(5),
      total: t.montoTotalLinea,
    };
  });
}

/** Totals of a draft; a totals error becomes the field error of the form. Throws IssueValidationError. */
export function totalsOrThrow(draft: DocumentDraft): Totals {
  try {
    return draftTotals(draft);
  } catch (error) {
    if (error instanceof TotalsError) throw new IssueValidationError([{ field: fieldOfPath(error.field), message: error.message }]);
    throw error;
  }
}

/** Issues a document in its own transaction. */
export async function issueDocument(db: Db, input: IssueInput): Promise<IssueResult> {
  const pre = checkDraft(input.draft);
  if (pre.length) return { ok: false, errors: pre };
  // The key is resolved before the transaction: never read the .p12 under the counter lock (and
  // PGlite has one connection: no query outside the transaction while it is open).
  let key: SigningKey | null;
  try {
    key = await resolveKey(db, input);
  } catch (error) {
    if (error instanceof SigningKeyError) return { ok: false, errors: [{ field: "form", message: error.message }] };
    throw error;
  }
  try {
    return await db.transaction((tx) => issueDocumentInTx(tx, input, key));
  } catch (error) {
    if (error instanceof IssueValidationError) return { ok: false, errors: error.errors };
    throw error;
  }
}

/** The signing key the issue needs (null for quotations and no_hacienda companies). */
export async function resolveKey(db: DbOrTx, input: Pick<IssueInput, "companyId" | "draft" | "now" | "keyFor">): Promise<SigningKey | null> {
  if (input.draft.kind === "qt") return null;
  const [c] = await db.select({ noHacienda: companies.noHacienda }).from(companies).where(eq(companies.id, input.companyId));
  if (!c || c.noHacienda) return null;
  return input.keyFor ? input.keyFor(input.companyId) : signingKeyFor(db, input.companyId, input.now);
}

/**
 * The issuing steps on an open transaction (the recurring job advances its period in the same one).
 * `key` comes from resolveKey. Throws IssueValidationError.
 *
 * Order (docs/decisions/070, 188): everything that does not depend on the number — the checks, the
 * XSD validation on a provisional number, the totals, and the document's rows (document without its
 * number, clave and signature; lines; references; the submission job; the caller's
 * `beforeNumbering` writes) — happens before the counter row is locked. From the counter's
 * statement to the commit only the final build, the signature and one UPDATE remain. Numbering stays
 * gapless and crash-safe: the number, the signed bytes and the rows commit together or not at all.
 */
export async function issueDocumentInTx(
  tx: Tx,
  input: IssueInput,
  key: SigningKey | null,
  hooks: { beforeNumbering?: (documentId: number) => Promise<void> } = {},
): Promise<Extract<IssueResult, { ok: true }>> {
  const { companyId, draft, now } = input;
  const prepared = await prepareIssue(tx, input);
  const { references, client, issuerSnapshot, effective, hacienda, branch, terminal, docType, header, mapped } = prepared;
  let totals = prepared.totals;
  if (hacienda && !key) throw new IssueValidationError([{ field: "form", message: "La empresa no tiene una llave criptográfica configurada: súbala en Configuración › Hacienda." }]);
  // The stored totals are the builder's, which equal draftTotals (same function, same inputs); the
  // number is not one of the inputs, so they are taken from the provisional comprobante.
  if (draft.kind !== "qt") totals = documentTotals(mapped(header(1)));

  const summary = summaryOf(totals);
  const [row] = await tx
    .insert(documents)
    .values({
      companyId,
      kind: draft.kind,
      status: hacienda ? "por enviar" : "no aplica",
      issuedAt: now,
      ...draftColumns(effective, totals, client, issuerSnapshot, now),
      branch,
      terminal,
      // number, consecutivo, clave and signed_xml: set under the counter lock, below.
      number: null,
      consecutivo: null,
      clave: null,
      situacion: draft.kind === "qt" ? null : (draft.situacion ?? 1),
      createdBy: input.userId,
      createdAt: now,
      signedXml: null,
      replacesDocumentId: input.replacesDocumentId ?? null,
      quotationId: input.quotationId ?? null,
      controlNumber: input.controlNumber ?? null,
      recurringId: input.recurring?.id ?? null,
      recurringPeriod: input.recurring?.period ?? null,
    })
    .returning({ id: documents.id });

  if (draft.lines.length) await tx.insert(documentLines).values(lineRows(companyId, row.id, draft, totals));
  if (references.length) {
    await tx.insert(documentReferences).values(
      references.map((r) => ({
        companyId,
        documentId: row.id,
        referencedDocumentId: r.documentId ?? null,
        docType: r.docType,
        number: r.number,
        issuedAt: new Date(r.issuedAt),
        code: r.code,
        reason: r.reason,
      })),
    );
  }
  // Not sent to Hacienda: the note is final now, so it counts on its document at once.
  if (!hacienda && (draft.kind === "nc" || draft.kind === "nd")) await applyNoteToReferenced(tx, { companyId, noteId: row.id });
  if (hacienda) {
    await enqueue(tx, "submit-document", { documentId: row.id, companyId }, { runAt: now, uniqueKey: `submit:${row.id}`, maxAttempts: 1000 });
  }
  if (hooks.beforeNumbering) await hooks.beforeNumbering(row.id);

  // The counter row is locked from here to the commit.
  const number = input.sequence ? await takeSequence(tx, { companyId, branch, terminal, docType }, input.sequence) : await takeNextNumber(tx, { companyId, branch, terminal, docType });
  let clave: string | null = null;
  let consecutivo: string | null = null;
  let signed: Buffer | null = null;
  if (draft.kind !== "qt") {
    const h = header(number);
    clave = h.clave;
    consecutivo = h.consecutivo;
    let xml: string;
    try {
      xml = buildXml(mapped(h));
    } catch (error) {
      const e = error as { field?: string; message: string };
      throw new IssueValidationError([{ field: fieldOfPath(e.field ?? ""), message: e.message }]);
    }
    // no_hacienda companies: numbered and validated, never signed nor sent.
    if (hacienda) signed = Buffer.from(await signOffThread(xml, key!, now), "utf8");
  }
  await tx.update(documents).set({ number, consecutivo, clave, signedXml: signed }).where(eq(documents.id, row.id));
  return { ok: true, documentId: row.id, kind: draft.kind, number, clave, consecutivo, status: hacienda ? "por enviar" : "no aplica", total: summary.total };
}

/** An integrator-supplied number (modo_consecutive_api), or the Spanish reason it cannot be taken. Throws IssueValidationError. */
async function takeSequence(tx: Tx, k: CounterKey, sequence: number): Promise<number> {
  const taken = await takeGivenNumber(tx, k, sequence);
  if (taken.ok) return sequence;
  throw new IssueValidationError([{ field: "consecutive", message: sequence < taken.next ? ISSUE_MESSAGES.sequenceUsed(sequence, taken.next) : ISSUE_MESSAGES.sequenceGap(sequence, taken.next) }]);
}

/**
 * Everything an issue checks before the counter lock: the draft's rules, the client and references
 * of this company, the totals, and the XSD validation of the document built with a provisional
 * number. Throws IssueValidationError. Also what a recurring template is checked with
 * (validateForIssue): the same rules as the invoice it will issue.
 */
async function prepareIssue(tx: DbOrTx, input: Pick<IssueInput, "companyId" | "draft" | "now" | "schemaSet" | "randomBytes" | "branch" | "terminal">) {
  const { companyId, draft, now } = input;
  const pre = checkDraft(draft);
  if (pre.length) throw new IssueValidationError(pre);
  const { company, issuer, issuerSnapshot } = await companySnapshot(tx, companyId);
  const filed = draft.clientId ? await clientSnapshot(tx, companyId, draft.clientId) : null;
  if (draft.clientId && !filed) throw new IssueValidationError([{ field: "clientId", message: ISSUE_MESSAGES.clientNotFound }]);
  // Stored and printed as the XML names the buyer: a ticket to an international client is that client.
  const client = buyerOf(draft, filed);

  // References to our own documents: fill clave and date from the stored document (tenancy-checked).
  const references = [];
  for (const r of draft.references ?? []) {
    if (r.documentId) {
      const [src] = await tx
        .select({ id: documents.id, kind: documents.kind, clave: documents.clave, issuedAt: documents.issuedAt })
        .from(documents)
        .where(and(eq(documents.id, r.documentId), eq(documents.companyId, companyId)));
      if (!src) throw new IssueValidationError([{ field: "references", message: ISSUE_MESSAGES.referenceNotFound }]);
      if ((draft.kind === "nc" || draft.kind === "nd") && !NOTE_SOURCES.has(src.kind)) throw new IssueValidationError([{ field: "references", message: ISSUE_MESSAGES.referenceKind }]);
      const docType = r.docType || (src.kind === "fec" ? (draft.kind === "nc" ? "17" : "18") : REF_DOC_TYPE[src.kind]);
      references.push({ ...r, docType, number: src.clave ?? r.number, issuedAt: src.issuedAt.toISOString() });
    } else references.push(r);
  }
  const effective: DocumentDraft = { ...draft, references };

  const totals = totalsOrThrow(effective);

  const hacienda = draft.kind !== "qt" && !company.noHacienda;
  const hc = await companyHacienda(tx, companyId, now);
  const branch = input.branch ?? hc?.branch ?? 1;
  const terminal = input.terminal ?? hc?.terminal ?? 1;
  const docType = COUNTER_TYPE[draft.kind];
  const situacion = draft.situacion ?? 1;
  // The clave carries the identification of whoever issues and signs: for a purchase invoice (FEC)
  // that is the buyer, our company, not the provider in <Emisor> (who may be a foreigner whose id
  // does not fit the clave's 12 digits) — decision 087.
  const issuerId = issuer.idNumber;
  const issuerIdType = issuer.idType;
  const header = (sequence: number) => {
    try {
      const consecutivo = buildConsecutivo({ branch, terminal, docType: docType as never, sequence });
      const securityCode = randomSecurityCode(input.randomBytes ?? ((n) => nodeRandomBytes(n)));
      return { consecutivo, clave: buildClave({ issuedAt: now, issuerId, issuerIdType, consecutivo, situacion, securityCode }) };
    } catch (error) {
      const e = error as { field?: string; message: string };
      throw new IssueValidationError([{ field: e.field ?? "form", message: e.message }]);
    }
  };
  const mapped = (h: { clave: string; consecutivo: string }) => draftToComprobante(effective, { issuer, client, ...h, issuedAt: now, providerId: issuer.idNumber });

  // Validate (rules + XSD) BEFORE taking the counter lock, with a provisional number of the same
  // shape: validity never depends on the sequence, and concurrent issuers do this work in
  // parallel. Under the lock only the final build and the signature remain (decision 070).
  if (draft.kind !== "qt") {
    const result = validateDocument(mapped(header(1)), input.schemaSet);
    if (!result.ok) throw new IssueValidationError(result.errors.map((e) => ({ field: fieldOfPath(e.path), message: e.message })));
  }

  return { company, issuer, issuerSnapshot, client, references, effective, totals, hacienda, branch, terminal, docType, header, mapped };
}

/**
 * The errors issuing this draft now would give (rules, client, references, totals, XSD), without
 * numbering, signing or storing anything; the summary of its totals when valid. The signing key is
 * not required (it is checked when the document is issued).
 */
export async function validateForIssue(db: DbOrTx, input: Pick<IssueInput, "companyId" | "draft" | "now" | "schemaSet">): Promise<{ ok: true; summary: ReturnType<typeof summaryOf> } | { ok: false; errors: FieldError[] }> {
  try {
    const { totals } = await prepareIssue(db, input);
    return { ok: true, summary: summaryOf(totals) };
  } catch (error) {
    if (error instanceof IssueValidationError) return { ok: false, errors: error.errors };
    throw error;
  }
}
