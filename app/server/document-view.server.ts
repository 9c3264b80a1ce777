// Loads a stored document as a DocumentView (app/domain/document-view.ts) for the PDF, the public
// page and the e-mail. Tenancy: always by companyId and documentId together. Only stored values are
// printed (the total in colones is the stored total times the stored exchange rate): the client and
// the company as they were at issue (decision 162), never as they are now.
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { documentOf, linesOf, referencesOf } from "../../db/queries/documents.ts";
import { codeTables, companies, currencies } from "../../db/schema/index.ts";
import { Decimal } from "../domain/decimal.ts";
import { DOCUMENT_KIND_LABELS, paymentMethodLabels, saleConditionLabel, type CompanyView, type DocumentKind, type DocumentView, type HaciendaStatus } from "../domain/document-view.ts";
import type { DocumentDraft, IssuerSnapshot, PartySnapshot } from "../domain/document-draft.ts";
import { readModel } from "../hacienda/read-model.ts";
import { fillPayments } from "../domain/totals.ts";
import { paymentMethods } from "../../db/seed/reference-data.ts";
import { env } from "./env.server.ts";
import { publicUrl } from "./public-link.server.ts";

const STATUSES = new Set(["por enviar", "procesando", "aceptado", "rechazado"]);

async function codeNames(db: DbOrTx, kind: string, codes: string[]) {
  if (!codes.length) return new Map<string, string>();
  const rows = await db
    .select({ code: codeTables.code, name: codeTables.name })
    .from(codeTables)
    .where(and(eq(codeTables.kind, kind), inArray(codeTables.code, codes)));
  return new Map(rows.map((r) => [r.code ?? "", r.name]));
}

type CompanyRow = typeof companies.$inferSelect;
type IssuerFields = Omit<CompanyView, "logo">;

/**
 * The company as the document carries it (decision 162): the snapshot stored at issue; for a
 * document issued before snapshots were stored, the party of its signed XML (the issuer; the
 * receiver of a purchase invoice) with the company's print format; without either (a quotation or a
 * no-Hacienda document of that time), the company as it is.
 */
function issuerOf(doc: { kind: string; issuerSnapshot: unknown; signedXml: Buffer | null }, company: CompanyRow): IssuerFields {
  const snap = doc.issuerSnapshot as IssuerSnapshot | null;
  if (snap)
    return {
      name: snap.name,
      fantasyName: snap.tradeName ?? null,
      identification: { type: snap.idType, number: snap.idNumber },
      phone: snap.phone ?? null,
      email: snap.email ?? null,
      address: snap.address ?? null,
      invoiceFormat: snap.invoiceFormat,
    };
  const invoiceFormat = company.invoiceFormat === "2" ? "2" : "1";
  if (doc.signedXml?.length) {
    try {
      const model = readModel(doc.signedXml);
      const party = "issuer" in model ? (doc.kind === "fec" ? model.receiver : model.issuer) : undefined;
      if (party)
        return {
          name: party.name,
          fantasyName: party.tradeName ?? null,
          identification: { type: party.id.type, number: party.id.number },
          phone: party.phone?.number ?? null,
          email: party.emails[0] ?? null,
          address: party.location?.otherSigns ?? party.foreignAddress ?? null,
          invoiceFormat,
        };
    } catch {
      // An unreadable stored XML prints the company as it is rather than nothing.
    }
  }
  return {
    name: company.name,
    fantasyName: company.fantasyName,
    identification: { type: String(company.identificationTypeId).padStart(2, "0"), number: company.identification },
    phone: company.phone,
    email: company.email,
    address: company.otherSigns,
    invoiceFormat,
  };
}

export async function loadDocumentView(db: DbOrTx, ref: { companyId: number; documentId: number }): Promise<DocumentView | null> {
  const doc = await documentOf(db, { companyId: ref.companyId, id: ref.documentId });
  if (!doc || doc.deletedAt || !(doc.kind in DOCUMENT_KIND_LABELS)) return null;
  const [[company], [currency], lines, refs] = await Promise.all([
    db.select().from(companies).where(eq(companies.id, ref.companyId)),
    db.select().from(currencies).where(eq(currencies.id, doc.currencyId)),
    linesOf(db, { companyId: ref.companyId, documentId: doc.id }),
    referencesOf(db, { companyId: ref.companyId, documentId: doc.id }),
  ]);
  if (!company) return null;
  const [saleNames, refTypeNames, refCodeNames] = await Promise.all([
    codeNames(db, "sale_condition", doc.saleCondition ? [doc.saleCondition] : []),
    codeNames(db, "reference_document_type", refs.map((r) => r.docType)),
    codeNames(db, "reference_code", refs.map((r) => r.code ?? "")),
  ]);
  // The payment methods as the XML carries them (the draft was checked when it was issued).
  const draft = doc.draft as Pick<DocumentDraft, "payments" | "saleConditionOther"> | null;
  const payments = doc.kind === "qt" || !draft?.payments?.length ? [] : fillPayments(doc.totalComprobante, draft.payments);
  const client = doc.clientSnapshot as (PartySnapshot & { generic?: boolean }) | null;
  const currencyCode = currency?.code ?? "CRC";
  const kind = doc.kind as DocumentKind;
  return {
    kind,
    kindLabel: DOCUMENT_KIND_LABELS[kind],
    consecutive: doc.consecutivo ?? String(doc.number ?? doc.id),
    clave: doc.clave ?? "",
    issueDate: doc.issuedAt,
    haciendaStatus: (STATUSES.has(doc.status) ? doc.status : null) as HaciendaStatus,
    company: {
      ...issuerOf(doc, company),
      // The logo is the company's current one (decision 162): it is not part of the signed document.
      logo: company.logo && company.logoMime ? { bytes: new Uint8Array(company.logo), mime: company.logoMime } : null,
    },
    client: client
      ? {
          name: client.name,
          identification: client.idNumber ? { type: client.idType, number: client.idNumber } : null,
          email: client.email ?? null,
          phone: client.phone ?? null,
          address: client.address ?? null,
          generic: !!client.generic,
        }
      : { name: "", identification: null, email: null, phone: null, address: null, generic: true },
    currency: { code: currencyCode, symbol: currency?.symbol ?? "₡" },
    exchangeRate: doc.exchangeRate,
    saleCondition: saleConditionLabel((doc.saleCondition && saleNames.get(doc.saleCondition)) || "", doc.saleCondition === "99" ? draft?.saleConditionOther : null),
    payments: paymentMethodLabels(
      payments.map((p) => ({ ...p, name: paymentMethods.find((m) => m.code === p.code)?.name ?? p.code })),
      currency?.symbol ?? "₡",
    ),
    paymentTermDays: doc.creditDays ?? null,
    dueDate: doc.expirationDate ? new Date(`${doc.expirationDate}T12:00:00-06:00`) : null,
    lines: lines.map((l) => ({
      code: l.code ?? "",
      cabys: l.cabys ?? "",
      description: l.description,
      quantity: l.quantity,
      unit: l.unit,
      unitPrice: l.unitPrice,
      discount: l.discount,
      taxRate: l.taxRate,
      taxAmount: l.tax,
      exoneration: l.exonerated,
      lineTotal: l.total,
    })),
    totals: {
      subtotal: doc.subtotal,
      discount: doc.discount,
      tax: doc.tax,
      exonerated: doc.exonerated,
      ivaDevuelto: doc.ivaDevuelto,
      otherCharges: doc.otherCharges,
      total: doc.totalComprobante,
    },
    totalColones: currencyCode === "CRC" ? null : new Decimal(doc.totalComprobante).times(doc.exchangeRate).toFixed(5),
    references: refs.map((r) => ({
      documentType: refTypeNames.get(r.docType) ?? r.docType,
      number: r.number ?? "",
      date: r.issuedAt,
      code: (r.code && refCodeNames.get(r.code)) ?? r.code ?? "",
      reason: r.reason ?? "",
    })),
    note: doc.note,
    terms: doc.terms,
    publicUrl: publicUrl(env().appUrl, { companyId: ref.companyId, documentId: doc.id }),
  };
}
