/**
 * The typed draft a document form submits, and the one mapping from it to the Hacienda model
 * (app/hacienda/model.ts). Pure: no database, no clock. Totals shown while editing come from
 * `draftTotals`, which runs the same computeTotals/fillPayments the builder runs when issuing, so
 * the form and the stored/signed document never disagree.
 */
import type { Comprobante, Line, Party, Reference } from "../hacienda/model.ts";
import type { IdType, Situacion } from "../hacienda/clave.ts";
import { EXONERATION_DOC_TYPES, EXONERATION_INSTITUTIONS, NOTES_ONLY_EXONERATIONS } from "../hacienda/codes.ts";
import { linePriceOk, parseAmount as num } from "./line-price.ts";
import { computeTotals, fillPayments, IVA_RATES, type DocumentTotals, type LineInput, type TarifaCode, type TaxCode } from "./totals.ts";

export type DraftKind = "fe" | "te" | "nc" | "nd" | "fec" | "qt";
export const DRAFT_KINDS: readonly DraftKind[] = ["fe", "te", "nc", "nd", "fec", "qt"];

export interface DraftExoneration {
  /** TipoDocumentoEX1 (Nota 10.1); 99 'Otros' needs docTypeOther. */
  docType: string;
  docTypeOther?: string;
  number: string;
  /** NombreInstitucion (Nota 23); 99 'Otros' needs institutionOther. */
  institution: string;
  institutionOther?: string;
  article?: string;
  inciso?: string;
  /** YYYY-MM-DD. */
  issuedAt: string;
  /** Rate points exonerated (0 … the tax rate). */
  percentage: string;
}

export interface DraftLine {
  itemId?: number | null;
  code?: string;
  cabys?: string;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  /** 0–100. */
  discountPercent?: string;
  discountReason?: string;
  /** IVA by CodigoTarifaIVA (01 IVA); other tax codes with an explicit rate. */
  tax: { code?: TaxCode; tarifaCode?: TarifaCode; rate?: string };
  exoneration?: DraftExoneration | null;
  healthService?: boolean;
}

export interface DraftReference {
  /** Our own document, when the reference is to one. */
  documentId?: number | null;
  /** TipoDocIR (Nota 10). */
  docType: string;
  /** Clave (or number) of the referenced document. */
  number: string;
  /** ISO instant. */
  issuedAt: string;
  /** Codigo (Nota 9). */
  code: string;
  reason: string;
}

/** What the form submits. JSON-safe (stored as is for clones, replacements and recurring documents). */
export interface DocumentDraft {
  kind: DraftKind;
  /** The client (fe, te, nc, nd, qt) or the provider (fec); null/absent = generic client (te). */
  clientId?: number | null;
  /** CondicionVenta (Nota 5): 01 contado, 02 crédito, … 99 otros (described in saleConditionOther). */
  saleCondition: string;
  /** CondicionVentaOtros: what the sale condition 99 'Otros' is (5 to 100 characters). */
  saleConditionOther?: string;
  creditDays?: number | null;
  /** MedioPago (up to 4); a single method without amount takes the whole total; 99 'Otros' is described in `other` (MedioPagoOtros, 3 to 100 characters). */
  payments: Array<{ code: string; other?: string; amount?: string }>;
  currency: "CRC" | "USD";
  /** Colones per dollar when currency is USD ("1" in colones). */
  exchangeRate: string;
  lines: DraftLine[];
  references?: DraftReference[];
  note?: string;
  terms?: string;
  /** E-mails to notify. */
  emails?: string[];
  /** 1 normal (default), 2 contingencia, 3 sin internet. */
  situacion?: Situacion;
  /** Overrides the company's economic activity. */
  activityCode?: string;
  /** Invoices: e-mail a payment reminder the day after the due date when still unpaid. */
  remindPayment?: boolean;
  /** Ticket to an international client (name and id shown on the ticket). */
  internationalClient?: { name: string; cedula: string } | null;
}

/** A party as stored on the document (client snapshot / issuer). */
export interface PartySnapshot {
  name: string;
  idType: IdType;
  idNumber: string;
  tradeName?: string | null;
  email?: string | null;
  phone?: string | null;
  province?: number | null;
  canton?: number | null;
  district?: number | null;
  barrio?: string | null;
  address?: string | null;
  /** Country id (60 = Costa Rica). */
  countryId?: number | null;
  activityCode?: string | null;
  generic?: boolean;
}

/**
 * The company as it was when a document was issued: the party of its XML (the issuer; the receiver
 * of a purchase invoice) and the print format. Stored on the document (documents.issuer_snapshot);
 * the PDF, preview, public page and e-mails print it (docs/decisions/162).
 */
export interface IssuerSnapshot extends PartySnapshot {
  /** '1' standard; '2' adds the CABYS column. */
  invoiceFormat: "1" | "2";
}

export interface FieldError {
  /** Form field: "lines.0.quantity", "references.0.number", "clientId", … or a Hacienda path. */
  field: string;
  message: string;
}

export const DRAFT_MESSAGES = {
  noItems: "El documento debe contener minimo un artículo.",
  noteRequired: "La nota es obligatoria para notas de crédito y débito.",
  referenceRequired: "Indique el documento de referencia.",
  referenceFields: "Complete todos los campos de la referencia.",
  clientRequired: "Seleccione un cliente.",
  providerRequired: "Seleccione un proveedor.",
  quantityRange: "La cantidad debe estar entre 0,1 y 100.000.",
  priceRange: "El precio debe estar entre 0,1 y 1.000.000.000.000.",
  discountRange: "El descuento debe estar entre 0 y 100.",
  exchangeRate: "Indique el tipo de cambio del dólar (mayor que cero).",
  creditDays: "Los días de crédito deben estar entre 1 y 365.",
  exonerationRate: "La exoneración solo aplica cuando la tarifa del impuesto es mayor que 0.",
  exonerationPercent: "El porcentaje de exoneración debe estar entre 0 y la tarifa del impuesto.",
  exonerationFields: "Complete el tipo, número, fecha e institución de la exoneración.",
  exonerationOther: "Con 'Otros', describa el tipo de documento o la institución (de 5 a 100 caracteres).",
  exonerationNumber: "El número del documento de exoneración debe tener entre 3 y 40 caracteres.",
  exonerationArticle: "El artículo y el inciso de la exoneración son números de hasta 6 dígitos.",
  exonerationNotesOnly: (code: string) => `El tipo de exoneración ${code} solo se admite en notas de crédito y débito (Anexo 4.4, nota 10.1): elija otro tipo.`,
  internationalClient: "Indique el nombre y la identificación del cliente internacional.",
  saleConditionOther: "Con la condición de venta 'Otros', describa la condición (de 5 a 100 caracteres).",
  paymentOther: "Con el medio de pago 'Otros', describa el medio de pago (de 3 a 100 caracteres).",
} as const;

/** Length of the description Hacienda requires with code 99 'Otros' (XSD v4.4: CondicionVentaOtros 5–100, MedioPagoOtros 3–100). */
export const OTHER_DESCRIPTION = { saleCondition: { min: 5, max: 100 }, payment: { min: 3, max: 100 } } as const;

const describes = (text: string | undefined, len: { min: number; max: number }) => {
  const n = (text ?? "").trim().length;
  return n >= len.min && n <= len.max;
};

export function lineRate(l: DraftLine): string {
  if (l.tax.rate !== undefined && l.tax.rate !== "") return l.tax.rate;
  return l.tax.tarifaCode ? IVA_RATES[l.tax.tarifaCode] : "0";
}

/** Form-level checks (spec part 2 §5) before the Hacienda rules run on the built model. */
export function checkDraft(d: DocumentDraft): FieldError[] {
  const e: FieldError[] = [];
  if (d.kind === "fec" && !d.clientId) e.push({ field: "clientId", message: DRAFT_MESSAGES.providerRequired });
  if ((d.kind === "fe" || d.kind === "nc" || d.kind === "nd" || d.kind === "qt") && !d.clientId) e.push({ field: "clientId", message: DRAFT_MESSAGES.clientRequired });
  if (d.internationalClient && (!d.internationalClient.name?.trim() || !d.internationalClient.cedula?.trim()))
    e.push({ field: "internationalClient", message: DRAFT_MESSAGES.internationalClient });
  if (d.currency === "USD" && !(num(d.exchangeRate) > 0)) e.push({ field: "exchangeRate", message: DRAFT_MESSAGES.exchangeRate });
  if (d.saleCondition === "99" && !describes(d.saleConditionOther, OTHER_DESCRIPTION.saleCondition)) e.push({ field: "saleConditionOther", message: DRAFT_MESSAGES.saleConditionOther });
  d.payments.forEach((p, i) => {
    if (p.code === "99" && !describes(p.other, OTHER_DESCRIPTION.payment)) e.push({ field: `payments.${i}.other`, message: DRAFT_MESSAGES.paymentOther });
  });
  if (d.saleCondition === "02" && !(Number.isInteger(d.creditDays) && d.creditDays! >= 1 && d.creditDays! <= 365))
    e.push({ field: "creditDays", message: DRAFT_MESSAGES.creditDays });
  if (d.lines.length === 0) e.push({ field: "lines", message: DRAFT_MESSAGES.noItems });
  d.lines.forEach((l, i) => {
    const q = num(l.quantity);
    if (!(q >= 0.1 && q <= 100000)) e.push({ field: `lines.${i}.quantity`, message: DRAFT_MESSAGES.quantityRange });
    if (!linePriceOk(l.unitPrice)) e.push({ field: `lines.${i}.unitPrice`, message: DRAFT_MESSAGES.priceRange });
    if (l.discountPercent !== undefined && l.discountPercent !== "") {
      const ds = num(l.discountPercent);
      if (!(ds >= 0 && ds <= 100)) e.push({ field: `lines.${i}.discountPercent`, message: DRAFT_MESSAGES.discountRange });
    }
    if (l.exoneration) {
      const rate = num(lineRate(l));
      const x = l.exoneration;
      const at = `lines.${i}.exoneration`;
      if (!(rate > 0)) e.push({ field: at, message: DRAFT_MESSAGES.exonerationRate });
      else if (!(/^\d{1,2}(\.\d{1,2})?$/.test(x.percentage.trim()) && num(x.percentage) <= rate)) e.push({ field: `${at}.percentage`, message: DRAFT_MESSAGES.exonerationPercent });
      if (!EXONERATION_DOC_TYPES[x.docType] || !x.number || !/^\d{4}-\d{2}-\d{2}$/.test(x.issuedAt) || !EXONERATION_INSTITUTIONS[x.institution])
        e.push({ field: at, message: DRAFT_MESSAGES.exonerationFields });
      else if (x.number.trim().length < 3 || x.number.trim().length > 40) e.push({ field: `${at}.number`, message: DRAFT_MESSAGES.exonerationNumber });
      if (NOTES_ONLY_EXONERATIONS.has(x.docType) && d.kind !== "nc" && d.kind !== "nd") e.push({ field: `${at}.type`, message: DRAFT_MESSAGES.exonerationNotesOnly(x.docType) });
      const other = (v: string | undefined) => (v ?? "").trim().length >= 5 && (v ?? "").trim().length <= 100;
      if ((x.docType === "99" && !other(x.docTypeOther)) || (x.institution === "99" && !other(x.institutionOther))) e.push({ field: `${at}.other`, message: DRAFT_MESSAGES.exonerationOther });
      if ([x.article, x.inciso].some((v) => v && !/^\d{1,6}$/.test(v))) e.push({ field: `${at}.article`, message: DRAFT_MESSAGES.exonerationArticle });
    }
  });
  if (d.kind === "nc" || d.kind === "nd") {
    if (!d.note?.trim()) e.push({ field: "note", message: DRAFT_MESSAGES.noteRequired });
    if (!d.references?.length) e.push({ field: "references", message: DRAFT_MESSAGES.referenceRequired });
  }
  (d.references ?? []).forEach((r, i) => {
    // A reference to one of our documents (documentId) takes its type, clave and date from it.
    const own = !!r.documentId;
    if ((!own && (!r.docType || !r.number || !r.issuedAt)) || !r.code || !r.reason?.trim()) e.push({ field: `references.${i}`, message: DRAFT_MESSAGES.referenceFields });
  });
  return e;
}

/** The line inputs of the totals function. */
export function draftLineInputs(d: DocumentDraft): LineInput[] {
  return d.lines.map((l) => toLine(l));
}

function toLine(l: DraftLine): Line {
  const taxCode: TaxCode = l.tax.code ?? "01";
  const iva = taxCode === "01" || taxCode === "07";
  const pct = l.discountPercent && Number(l.discountPercent) > 0 ? l.discountPercent : undefined;
  return {
    ...(l.cabys ? { cabys: l.cabys } : {}),
    ...(l.code ? { commercialCodes: [{ type: "04", code: l.code }] } : {}),
    quantity: l.quantity,
    unit: l.unit,
    description: l.description,
    unitPrice: l.unitPrice,
    ...(pct ? { discounts: [{ code: "07", percent: pct, ...(l.discountReason ? { nature: l.discountReason } : {}) }] } : {}),
    taxes: [
      {
        code: taxCode,
        ...(iva ? { tarifaCode: l.tax.tarifaCode ?? "08" } : { rate: l.tax.rate ?? "0" }),
        ...(l.exoneration
          ? {
              exoneration: {
                docType: l.exoneration.docType,
                ...(l.exoneration.docType === "99" && l.exoneration.docTypeOther ? { docTypeOther: l.exoneration.docTypeOther.trim() } : {}),
                number: l.exoneration.number.trim(),
                ...(l.exoneration.article ? { article: l.exoneration.article } : {}),
                ...(l.exoneration.inciso ? { inciso: l.exoneration.inciso } : {}),
                institution: l.exoneration.institution,
                ...(l.exoneration.institution === "99" && l.exoneration.institutionOther ? { institutionOther: l.exoneration.institutionOther.trim() } : {}),
                issuedAt: new Date(`${l.exoneration.issuedAt.slice(0, 10)}T12:00:00-06:00`),
                tarifaExonerada: l.exoneration.percentage,
              },
            }
          : {}),
      },
    ],
    ...(l.healthService ? { healthService: true } : {}),
  };
}

/** Same rule as the builder: IVA devuelto only when every payment is by card. */
function paidByCard(d: DocumentDraft): boolean {
  return (d.kind === "fe" || d.kind === "te" || d.kind === "nc" || d.kind === "nd") && d.payments.length > 0 && d.payments.every((p) => p.code === "02");
}

export type DraftTotals = DocumentTotals & { payments: Array<{ code: string; other?: string; amount: string }> };

/** Live totals for the form and the values stored at issue (5 decimals, half-up). Throws TotalsError. */
export function draftTotals(d: DocumentDraft): DraftTotals {
  const t = computeTotals(draftLineInputs(d), [], { paidByCard: paidByCard(d) });
  return { ...t, payments: fillPayments(t.resumen.totalComprobante, d.payments) };
}

/** Flat figures the list, PDF and reports read (spec part 2 §3 Transaction). */
export function summaryOf(t: DocumentTotals) {
  const r = t.resumen;
  const exonerated = t.lines.reduce((acc, l) => acc + l.taxes.reduce((a, x) => a + Number(x.exoneration?.monto ?? 0), 0), 0);
  return {
    subtotal: r.totalVenta,
    discount: r.totalDescuentos,
    tax: r.totalImpuesto,
    exonerated: exonerated.toFixed(5),
    ivaDevuelto: r.totalIVADevuelto,
    otherCharges: r.totalOtrosCargos,
    total: r.totalComprobante,
  };
}

function phoneOf(p: string | null | undefined) {
  const digits = (p ?? "").replace(/\D/g, "");
  return digits.length >= 8 && digits.length <= 20 ? { countryCode: "506", number: digits.slice(-8) } : undefined;
}

export function partyOf(s: PartySnapshot): Party {
  const home = (s.countryId ?? 60) === 60;
  const address = (s.address ?? "").trim();
  const location =
    home && s.province && s.canton && s.district && address.length >= 5
      ? {
          province: String(s.province),
          canton: String(s.canton).padStart(2, "0"),
          district: String(s.district).padStart(2, "0"),
          ...(s.barrio && s.barrio.length >= 5 ? { barrio: s.barrio.slice(0, 50) } : {}),
          otherSigns: address.slice(0, 250),
        }
      : undefined;
  const phone = phoneOf(s.phone);
  return {
    name: s.name.slice(0, 100),
    id: { type: s.idType, number: s.idNumber },
    ...(s.tradeName ? { tradeName: s.tradeName.slice(0, 80) } : {}),
    ...(location ? { location } : {}),
    ...(!home && address.length >= 5 ? { foreignAddress: address.slice(0, 300) } : {}),
    ...(phone ? { phone } : {}),
    emails: s.email ? [s.email] : [],
  };
}

export interface MappingContext {
  issuer: PartySnapshot;
  /** The client (receiver) or, for fec, the provider (issuer of the purchase invoice). */
  client?: PartySnapshot | null;
  clave: string;
  consecutivo: string;
  issuedAt: Date;
  /** ProveedorSistemas (own development: the company's id). */
  providerId: string;
}

/**
 * Who a document is issued to, as the XML names them and as the document stores and prints them: a
 * ticket to an international client is that buyer, "extranjero no domiciliado" (tipo 05), not the
 * generic client it is filed under; any other document, its client.
 */
export function buyerOf(d: DocumentDraft, client: PartySnapshot | null): PartySnapshot | null {
  const intl = d.kind === "te" ? d.internationalClient : null;
  const name = intl?.name?.trim() ?? "";
  const cedula = intl?.cedula?.trim() ?? "";
  if (!name || !cedula) return client;
  return { name: name.slice(0, 100), idType: "05", idNumber: cedula.slice(0, 20) };
}

/** The one mapping from a draft to the Hacienda model. Quotations are mapped as an FE (never sent). */
export function draftToComprobante(d: DocumentDraft, ctx: MappingContext): Comprobante {
  const kind = d.kind === "qt" ? "fe" : d.kind;
  const company = partyOf(ctx.issuer);
  const buyer = buyerOf(d, ctx.client ?? null);
  const client = buyer && !buyer.generic ? partyOf(buyer) : undefined;
  const references: Reference[] = (d.references ?? []).map((r) => ({
    docType: r.docType,
    number: r.number,
    issuedAt: new Date(r.issuedAt),
    code: r.code,
    reason: r.reason.slice(0, 180),
  }));
  const activity = d.activityCode ?? ctx.issuer.activityCode ?? undefined;
  const base = {
    kind,
    clave: ctx.clave,
    consecutivo: ctx.consecutivo,
    issuedAt: ctx.issuedAt,
    providerId: ctx.providerId,
    saleCondition: d.saleCondition,
    ...(d.saleCondition === "99" && d.saleConditionOther?.trim() ? { saleConditionOther: d.saleConditionOther.trim() } : {}),
    ...(d.saleCondition === "02" && d.creditDays ? { creditDays: d.creditDays } : {}),
    lines: d.lines.map(toLine),
    currency: { code: d.currency, rate: d.currency === "CRC" ? "1" : d.exchangeRate },
    payments: d.payments.map((p) => ({ code: p.code, ...(p.other?.trim() ? { other: p.other.trim() } : {}), ...(p.amount ? { amount: p.amount } : {}) })),
    ...(references.length ? { references } : {}),
    ...(d.note?.trim() ? { others: [{ text: d.note.trim().slice(0, 1000) }] } : {}),
  } satisfies Partial<Comprobante>;
  if (kind === "fec") {
    return { ...base, kind, issuer: client ?? partyOf(ctx.client!), receiver: company, receiverActivityCode: activity };
  }
  return {
    ...base,
    kind,
    ...(activity ? { activityCode: activity } : {}),
    issuer: company,
    ...(client ? { receiver: client } : {}),
    ...(client && ctx.client?.activityCode && kind !== "te" ? { receiverActivityCode: ctx.client.activityCode } : {}),
  };
}

/** Maps a Hacienda error path ("LineaDetalle 2/Cantidad", "Receptor/…") to the form field. */
export function fieldOfPath(path: string): string {
  const line = /(?:LineaDetalle|l[ií]nea)\s*\[?(\d+)\]?(?:\/(\w+))?/i.exec(path);
  if (line) {
    const sub: Record<string, string> = { Cantidad: "quantity", PrecioUnitario: "unitPrice", Detalle: "description", CodigoCABYS: "cabys", Descuento: "discountPercent", Impuesto: "tax" };
    return `lines.${Number(line[1]) - 1}${line[2] && sub[line[2]] ? `.${sub[line[2]]}` : ""}`;
  }
  if (path.startsWith("Receptor")) return "clientId";
  if (path.startsWith("InformacionReferencia")) return "references";
  if (path.includes("MedioPago")) return "payments";
  if (path.includes("TipoCambio")) return "exchangeRate";
  if (path.startsWith("CondicionVentaOtros")) return "saleConditionOther";
  if (path.startsWith("CondicionVenta")) return "saleCondition";
  if (path.startsWith("PlazoCredito")) return "creditDays";
  if (path === "DetalleServicio") return "lines";
  return path || "form";
}
