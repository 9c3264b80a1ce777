/**
 * The shared document form (spec part 2 §2 "Shared document form", §3 Item row, §5): the ONE place
 * where the flat form fields (`client_id`, `lines[0].description`, …) become a `DocumentDraft`.
 * Pure: the company's tax types and items are passed in.
 */
import type { DocumentDraft, DraftKind, DraftReference, FieldError } from "./document-draft.ts";
import { linePriceOk } from "./line-price.ts";
import { formatMoneyInput, parseDecimalInput } from "./number-input.ts";
import type { TarifaCode, TaxCode } from "./totals.ts";

/**
 * Most lines one document may have in Colibrí (docs/decisions/123-document-line-limit.md; Hacienda
 * allows 1000). More are refused with FORM_MESSAGES.tooManyLines, never cut.
 */
export const MAX_LINES = 200;
/** Lines read from one submission at most (Hacienda's maximum): past MAX_LINES they are read to be shown again with the refusal. */
export const READ_LINES = 1000;

export const FORM_MESSAGES = {
  descriptionRequired: "La descripción es obligatoria.",
  taxTypeRequired: "Seleccione el impuesto.",
  itemNotFound: "El artículo seleccionado no existe en esta empresa.",
  clientNotAllowed: "El cliente seleccionado no existe en esta empresa.",
  termNotFound: "Los términos seleccionados no existen en esta empresa.",
  contingency: "Indique el número y la fecha (hoy o antes) del comprobante provisional de contingencia.",
  paymentMethodRequired: "Seleccione el medio de pago.",
  saleConditionRequired: "Seleccione la condición de venta.",
  invalidKind: "El tipo de documento a crear es invalido",
  /** Plan 5 (API): the interface is read-only; documents come through the API. */
  readOnlyPlan: "Tu plan no permite emitir ni modificar documentos desde la aplicación.",
  emailInvalid: "invalido",
  tooManyLines: (n: number) => `Un documento admite como máximo ${MAX_LINES} líneas y este tiene ${n}. Quite líneas o divídalo en varios documentos.`,
  lineLimit: `Un documento admite como máximo ${MAX_LINES} líneas.`,
} as const;

/**
 * A number that is not one (decision 164: '1.500,50', '1500,50' and '1500.50' are; 'abc', '1.50.000'
 * are not). Plain strings, apart from FORM_MESSAGES: the page's JavaScript does not carry them.
 */
export const NUMBER_MESSAGES = {
  quantity: "Escriba la cantidad con dígitos, por ejemplo 1,5 o 1.500.",
  price: "Escriba el precio con dígitos, por ejemplo 1.500,50.",
  discount: "Escriba el descuento con dígitos, por ejemplo 10 o 12,5.",
  exchangeRate: "Escriba el tipo de cambio con dígitos, por ejemplo 505,25.",
  amount: "Escriba el monto con dígitos, por ejemplo 1.500,50.",
  percent: "Escriba el porcentaje con dígitos, por ejemplo 13 o 6,5.",
} as const;

/** At most this many notify addresses (besides the client's own e-mail). */
export const MAX_NOTIFY_EMAILS = 10;
const EMAIL_RE = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** The notify list as typed (commas, semicolons or spaces): the addresses and the malformed ones. */
export function parseEmailList(raw: string): { emails: string[]; bad: string[] } {
  const all = [...new Set(raw.split(/[\s,;]+/).map((e) => e.trim()).filter(Boolean))];
  return { emails: all.filter((e) => EMAIL_RE.test(e)).slice(0, MAX_NOTIFY_EMAILS), bad: all.filter((e) => !EMAIL_RE.test(e)) };
}

/** The kinds the shared form edits (spec part 2 "Shared document form"). */
export type FormKind = "fe" | "te" | "nc" | "nd" | "fec" | "qt";

/**
 * Per kind: the screen title, the list it belongs to, its /detail/:type segment, the toast after
 * saving, and which clients the client select offers (part 2: tickets default to the generic
 * client and exclude providers; invoices exclude generic clients and providers; simple documents
 * list only providers).
 */
export const FORM_KINDS: Record<FormKind, { title: string; listPath: string; clients: "customers" | "customers-and-generic" | "providers" }> = {
  nc: { title: "Nota de crédito", listPath: "/notes", clients: "customers-and-generic" },
  nd: { title: "Nota de débito", listPath: "/notes", clients: "customers-and-generic" },
  fec: { title: "Nueva factura de compra", listPath: "/simples", clients: "providers" },
  fe: { title: "Nueva factura", listPath: "/invoices", clients: "customers" },
  te: { title: "Nuevo tiquete", listPath: "/tickets", clients: "customers-and-generic" },
  qt: { title: "Nueva cotización", listPath: "/quotations", clients: "customers" },
};

/**
 * The toast after saving each kind (part 2 §8). Apart from FORM_KINDS and FORM_MESSAGES, as plain
 * strings: the server needs them, the page's JavaScript does not carry them.
 */
export const FORM_SAVED: Record<FormKind, string> = {
  nc: "Nota guardada con exito",
  nd: "Nota guardada con exito",
  fec: "Factura guardada con exito",
  fe: "Factura guardada con exito",
  te: "Tiquete guardado con exito",
  qt: "Cotización guardada con exito",
};

/**
 * Quick-add from a document form (part 2 "Shared document form"): the new-client page returns to the
 * form it came from with the new client selected. Only these forms (no open redirect); the purchase
 * invoice adds a provider.
 */
export const QUICK_ADD_RETURNS: Readonly<Record<string, { provider: boolean }>> = {
  "/new-invoice": { provider: false },
  "/new-ticket": { provider: false },
  "/new-quotation": { provider: false },
  "/recurring-new": { provider: false },
  "/new-simple": { provider: true },
};

/** The form a quick-add returns to (null when `volver` is not one of them). */
export function quickAddReturn(volver: string | null | undefined): string | null {
  return volver && Object.hasOwn(QUICK_ADD_RETURNS, volver) ? volver : null;
}

/**
 * School plan (permission 3): the client select offers the company's students, each billed to its
 * representative. A student is chosen as "s:<id>"; the document goes to the representative with
 * the student's name as the first line of the note (printed on the PDF and in the XML).
 */
export interface FormStudent {
  id: number;
  name: string;
  clientId: number;
  representative: string;
}

export const studentChoice = (id: number) => `s:${id}`;

/** The student a client choice names (undefined: not a student choice; null: not one of the offered students). */
export function chosenStudent(clientId: string, students: readonly FormStudent[] | null): FormStudent | null | undefined {
  const m = /^s:(\d{1,9})$/.exec(clientId);
  if (!m) return undefined;
  return students?.find((s) => s.id === Number(m[1])) ?? null;
}

/** The form as issued for a student: the representative as the client, "Estudiante: …" opening the note (once). */
export function billedToRepresentative(form: DocumentFormValues, student: FormStudent): DocumentFormValues {
  const line = `Estudiante: ${student.name}`;
  const note = form.note.startsWith(line) ? form.note : form.note.trim() ? `${line}\n${form.note}` : line;
  return { ...form, clientId: String(student.clientId), note: note.slice(0, 1000) };
}

export interface FormTaxType {
  id: number;
  name: string;
  rate: string;
  taxCode: string;
  vatCode: string;
}

/**
 * Above this many active clients (or items) the form no longer lists every one: it offers a search
 * ('Buscar cliente', the item search box) and lists the matches and what the form already uses, so
 * the page stays light whatever the catalogue (docs/decisions/101).
 */
export const FORM_LIST_LIMIT = 200;

/** Clients a search lists on the form. */
export const FORM_CLIENT_MATCHES = 20;

export interface FormItem {
  id: number;
  code: string;
  cabysCode: string | null;
  name: string;
  description: string;
  unitCode: string;
  taxTypeId: number;
  price: string;
}

/** One row of the item table, as typed (strings). `picked` is the item whose data filled the row. */
export interface FormLine {
  itemId: string;
  picked: string;
  code: string;
  cabys: string;
  description: string;
  unit: string;
  quantity: string;
  price: string;
  discount: string;
  taxTypeId: string;
  /** Exoneration (Nota 10.1 type, number, Nota 23 institution, date, rate points); all empty = none. */
  exType: string;
  exTypeOther: string;
  exNumber: string;
  exArticle: string;
  exInciso: string;
  exInstitution: string;
  exInstitutionOther: string;
  exDate: string;
  exPercent: string;
}

const EXONERATION_FIELDS = ["exType", "exTypeOther", "exNumber", "exArticle", "exInciso", "exInstitution", "exInstitutionOther", "exDate", "exPercent"] as const;

/** Whether the row carries an exoneration (any of its fields typed). */
export const hasExoneration = (l: FormLine) => EXONERATION_FIELDS.some((f) => l[f] !== "");

/** MedioPago: up to 4 (v4.4); a single method without amount takes the whole total. */
export const MAX_PAYMENTS = 4;

export interface FormPayment {
  code: string;
  amount: string;
  /** MedioPagoOtros: what the method 99 'Otros' is. */
  other: string;
}

/** A new payment row: cash, no amount. */
export const blankPayment = (): FormPayment => ({ code: "01", amount: "", other: "" });

export interface DocumentFormValues {
  clientId: string;
  saleCondition: string;
  /** CondicionVentaOtros: what the sale condition 99 'Otros' is. */
  saleConditionOther: string;
  creditDays: string;
  payments: FormPayment[];
  currency: "CRC" | "USD";
  exchangeRate: string;
  note: string;
  /** Tickets: sold to an international client (name and id printed on the ticket). */
  international: boolean;
  /** Invoices: the payment-reminder checkbox (the recurring block has its own). */
  remindPayment: boolean;
  /** One of the company's terms and conditions (configured in /terms), printed on the document. */
  termId: string;
  /** Invoices and tickets replacing a provisional (paper) document issued in contingency: its number and day. */
  contingencyNumber: string;
  contingencyDate: string;
  internationalName: string;
  internationalCedula: string;
  /** E-mails to notify besides the client's (spec "Shared document form"), as typed. */
  emails: string;
  lines: FormLine[];
}

const LINE_FIELDS = ["itemId", "picked", "code", "cabys", "description", "unit", "quantity", "price", "discount", "taxTypeId", ...EXONERATION_FIELDS] as const;
const LINE_KEY = /^lines\[(\d{1,4})\]\.(\w+)$/;
const PAYMENT_KEY = /^payments\[(\d)\]\.(code|amount|other)$/;

export function blankLine(taxTypeId = ""): FormLine {
  const none = Object.fromEntries(EXONERATION_FIELDS.map((f) => [f, ""])) as Record<(typeof EXONERATION_FIELDS)[number], string>;
  return { itemId: "", picked: "", code: "", cabys: "", description: "", unit: "Unid", quantity: "1", price: "", discount: "0", taxTypeId, ...none };
}

/** Flat form values → the structured form (lines in index order, renumbered from 0). */
export function readDocumentForm(values: Record<string, string | undefined>): DocumentFormValues {
  const byIndex = new Map<number, FormLine>();
  for (const [key, raw] of Object.entries(values)) {
    const m = LINE_KEY.exec(key);
    if (!m || !(LINE_FIELDS as readonly string[]).includes(m[2])) continue;
    const i = Number(m[1]);
    if (!byIndex.has(i)) {
      if (byIndex.size >= READ_LINES) continue;
      byIndex.set(i, { ...blankLine(), unit: "", quantity: "", discount: "" });
    }
    byIndex.get(i)![m[2] as (typeof LINE_FIELDS)[number]] = (raw ?? "").trim();
  }
  const lines = [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, l]) => l);
  const payIndex = new Map<number, FormPayment>();
  for (const [key, raw] of Object.entries(values)) {
    const m = PAYMENT_KEY.exec(key);
    if (!m) continue;
    const i = Number(m[1]);
    if (!payIndex.has(i)) payIndex.set(i, { code: "", amount: "", other: "" });
    payIndex.get(i)![m[2] as keyof FormPayment] = (raw ?? "").trim().slice(0, 100);
  }
  const payments = [...payIndex.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, p]) => p)
    .slice(0, MAX_PAYMENTS);
  return {
    clientId: (values.client_id ?? "").trim(),
    saleCondition: (values.sale_condition ?? "01").trim(),
    saleConditionOther: (values.sale_condition_other ?? "").trim().slice(0, 100),
    creditDays: (values.credit_days ?? "").trim(),
    payments: payments.length ? payments : [blankPayment()],
    currency: values.currency === "USD" ? "USD" : "CRC",
    exchangeRate: (values.exchange_rate ?? "").trim(),
    note: (values.note ?? "").slice(0, 1000),
    international: values.international === "on",
    remindPayment: values.remember_payment === "on",
    termId: (values.term_id ?? "").trim(),
    contingencyNumber: (values.contingency_number ?? "").trim().slice(0, 50),
    contingencyDate: (values.contingency_date ?? "").trim(),
    internationalName: (values.international_name ?? "").trim().slice(0, 100),
    internationalCedula: (values.international_cedula ?? "").trim().slice(0, 20),
    emails: (values.emails ?? "").trim().slice(0, 1000),
    lines,
  };
}

/** How many line rows a submission holds (every index, also past READ_LINES). */
export function countLineRows(values: Record<string, string | undefined>): number {
  const indices = new Set<string>();
  for (const key of Object.keys(values)) {
    const m = LINE_KEY.exec(key);
    if (m && (LINE_FIELDS as readonly string[]).includes(m[2])) indices.add(m[1]);
  }
  return indices.size;
}

/** The structured form → flat field names (what the inputs are called). */
export function lineFieldName(index: number, field: (typeof LINE_FIELDS)[number]): string {
  return `lines[${index}].${field}`;
}

/**
 * Fills each row whose item picker changed (itemId ≠ picked) from the company's item. An id that is
 * not one of the company's items is an error on that row (nothing is filled).
 */
export function applyItemPicks(form: DocumentFormValues, items: FormItem[]): { form: DocumentFormValues; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const lines = form.lines.map((l, i) => {
    if (!l.itemId) return { ...l, picked: "" };
    const item = items.find((it) => String(it.id) === l.itemId);
    if (!item) {
      errors.push({ field: `lines.${i}.itemId`, message: FORM_MESSAGES.itemNotFound });
      return l;
    }
    if (l.picked === l.itemId) return l;
    return { ...l, ...lineFromItem(item) };
  });
  return { form: { ...form, lines }, errors };
}

/** 'Nuevo plazo' on the form (spec part 2: name required, days 1 to 365). */
export const PAYMENT_TERM_MESSAGES = {
  nameRequired: "El nombre del plazo es obligatorio.",
  days: "Los días deben ser un número entero entre 1 y 365.",
  duplicate: (days: number) => `Ya existe un plazo de ${days} días.`,
  added: (name: string) => `Plazo agregado: ${name}`,
} as const;

export interface CreditTerm {
  name: string;
  days: number;
}

/** The new credit term typed on the form ('new_term_name', 'new_term_days'), or its errors. */
export function readCreditTerm(values: Record<string, string | undefined>): { typed: { name: string; days: string }; term: CreditTerm | null; errors: FieldError[] } {
  const typed = { name: (values.new_term_name ?? "").trim().slice(0, 60), days: (values.new_term_days ?? "").trim().slice(0, 6) };
  const errors: FieldError[] = [];
  if (!typed.name) errors.push({ field: "newTermName", message: PAYMENT_TERM_MESSAGES.nameRequired });
  const days = /^\d{1,3}$/.test(typed.days) ? Number(typed.days) : NaN;
  if (!(days >= 1 && days <= 365)) errors.push({ field: "newTermDays", message: PAYMENT_TERM_MESSAGES.days });
  return { typed, term: errors.length ? null : { name: typed.name, days }, errors };
}

/** The credit terms a form offers, by days: Hacienda's usual ones (without 'Contado') and the company's own, one per number of days. */
export function offeredCreditTerms(usual: readonly CreditTerm[], own: readonly CreditTerm[]): CreditTerm[] {
  const byDays = new Map<number, CreditTerm>();
  for (const t of [...usual, ...own]) if (t.days > 0 && !byDays.has(t.days)) byDays.set(t.days, { name: t.name, days: t.days });
  return [...byDays.values()].sort((a, b) => a.days - b.days);
}

/** The credit-term select's options; a value already on the form that is not offered (a clone of a 20-day invoice) is kept as "20 días". */
export function creditTermOptions(terms: readonly CreditTerm[], current: string): { value: string; label: string }[] {
  const n = Number(current);
  const extra = /^\d+$/.test(current) && n > 0 && !terms.some((t) => t.days === n) ? [{ name: `${n} días`, days: n }] : [];
  return [...terms, ...extra].sort((a, b) => a.days - b.days).map((t) => ({ value: String(t.days), label: t.name }));
}

/**
 * The units the form's line offers: the ones shops and services in Costa Rica invoice in, out of
 * Hacienda's 110 (most are physical units such as "ampere por metro"). A line from the catalogue
 * keeps its item's unit even when it is not here (the select adds it), and the server accepts any
 * code of Hacienda's list. Kept short: it is sent in every form's JavaScript.
 */
export const FORM_UNITS: readonly (readonly [symbol: string, description: string])[] = [
  ["Unid", "Unidad"], ["Sp", "Servicios Profesionales"], ["Spe", "Servicios personales"], ["St", "Servicios técnicos"],
  ["Os", "Otro tipo de servicio"], ["Al", "Alquiler de uso habitacional"], ["Alc", "Alquiler de uso comercial"], ["Cm", "Comisiones"],
  ["I", "Intereses"], ["h", "hora"], ["D", "día"], ["Min", "minuto"], ["Kg", "Kilogramo"], ["G", "Gramo"], ["T", "tonelada"],
  ["Qq", "Quintal"], ["Oz", "Onzas"], ["L", "litro"], ["mL", "mililitro"], ["Gal", "Galón"], ["M", "Metro"], ["cm", "centímetro"],
  ["Mm", "Milímetro"], ["Km", "Kilómetro"], ["Ln", "pulgada"], ["m²", "metro cuadrado"], ["m³", "metro cúbico"], ["kWh", "Kilovatios por hora"],
  ["Kw", "kilovatios"], ["Cc", "Cajuela de café"], ["Fa", "fanega de café"], ["Cu", "cuartillos de café"], ["Acv", "Activo Virtual"],
  ["Otros", "Se debe indicar la descripción de la medida a utilizar"],
];

/** What choosing an item fills on a row: its code, CABYS, text, unit, price and tax type. */
export function lineFromItem(item: FormItem): Pick<FormLine, "itemId" | "picked" | "code" | "cabys" | "description" | "unit" | "price" | "taxTypeId"> {
  return {
    itemId: String(item.id),
    picked: String(item.id),
    code: item.code,
    cabys: item.cabysCode ?? "",
    description: item.description || item.name,
    unit: item.unitCode,
    price: formatMoneyInput(item.price),
    taxTypeId: String(item.taxTypeId),
  };
}

function taxOf(t: FormTaxType): { code?: TaxCode; tarifaCode?: TarifaCode; rate?: string } {
  const code = t.taxCode as TaxCode;
  if (code === "01" || code === "07") return { code, tarifaCode: t.vatCode as TarifaCode };
  return { code, rate: String(Number(t.rate)) };
}

/** A row nothing was typed in: no item, code, CABYS, description, price or exoneration (quantity, unit, discount and tax keep their defaults). */
export function isBlankLine(l: FormLine): boolean {
  return !l.itemId && !l.code && !l.cabys && !l.description && !l.price && !hasExoneration(l);
}

/**
 * Spec part 2 §5 (item rows): a row's fields are required unless some row already has a name and a
 * price of at least 0.1. So blank rows are dropped when another row has both; otherwise they stay,
 * and are checked like any row. A row partly filled is always checked.
 */
export function withoutBlankLines(form: DocumentFormValues): DocumentFormValues {
  const some = form.lines.some((l) => l.description && linePriceOk(parseDecimalInput(l.price) ?? ""));
  return some ? { ...form, lines: form.lines.filter((l) => !isBlankLine(l)) } : form;
}

/**
 * The structured form → the draft `issueDocument` takes, plus the form-only errors (checkDraft runs
 * separately). Blank rows are left out (withoutBlankLines): the row numbers of the errors and of the
 * draft's lines are those of `withoutBlankLines(form)`, the form to show with them.
 */
export function toDraft(kind: DraftKind, typed: DocumentFormValues, taxTypes: FormTaxType[]): { draft: DocumentDraft; errors: FieldError[] } {
  const form = withoutBlankLines(typed);
  const errors: FieldError[] = [];
  const clientId = /^\d+$/.test(form.clientId) ? Number(form.clientId) : null;
  if (!form.saleCondition) errors.push({ field: "saleCondition", message: FORM_MESSAGES.saleConditionRequired });
  if (form.payments.length === 0 || form.payments.some((p) => !p.code)) errors.push({ field: "payments", message: FORM_MESSAGES.paymentMethodRequired });
  // Numbers typed the Costa Rican way become plain decimals; one that is not a number is an error
  // on its field (and an empty value for the draft's own checks, whose message comes second).
  const number = (raw: string, field: string, message: string) => {
    if (!raw) return raw;
    const v = parseDecimalInput(raw);
    if (v === null) errors.push({ field, message });
    return v ?? "";
  };
  const lines = form.lines.map((l, i) => {
    const taxType = taxTypes.find((t) => String(t.id) === l.taxTypeId);
    if (!taxType) errors.push({ field: `lines.${i}.tax`, message: FORM_MESSAGES.taxTypeRequired });
    if (!l.description) errors.push({ field: `lines.${i}.description`, message: FORM_MESSAGES.descriptionRequired });
    const itemId = /^\d+$/.test(l.itemId) ? Number(l.itemId) : null;
    return {
      itemId,
      ...(l.code ? { code: l.code.slice(0, 20) } : {}),
      ...(l.cabys ? { cabys: l.cabys } : {}),
      description: l.description.slice(0, 200),
      quantity: number(l.quantity, `lines.${i}.quantity`, NUMBER_MESSAGES.quantity),
      unit: l.unit || "Unid",
      unitPrice: number(l.price, `lines.${i}.unitPrice`, NUMBER_MESSAGES.price),
      ...(l.discount ? { discountPercent: number(l.discount, `lines.${i}.discountPercent`, NUMBER_MESSAGES.discount) } : {}),
      tax: taxType ? taxOf(taxType) : {},
      ...(hasExoneration(l)
        ? {
            exoneration: {
              docType: l.exType,
              ...(l.exTypeOther ? { docTypeOther: l.exTypeOther.slice(0, 100) } : {}),
              number: l.exNumber.slice(0, 40),
              ...(l.exArticle ? { article: l.exArticle } : {}),
              ...(l.exInciso ? { inciso: l.exInciso } : {}),
              institution: l.exInstitution,
              ...(l.exInstitutionOther ? { institutionOther: l.exInstitutionOther.slice(0, 100) } : {}),
              issuedAt: l.exDate,
              percentage: number(l.exPercent, `lines.${i}.exoneration.percentage`, NUMBER_MESSAGES.percent),
            },
          }
        : {}),
    };
  });
  const notify = parseEmailList(form.emails);
  if (notify.bad.length) errors.push({ field: "emails", message: `${notify.bad.join(", ")}: ${FORM_MESSAGES.emailInvalid}` });
  const credit = form.saleCondition === "02";
  const creditDays = credit && /^\d+$/.test(form.creditDays) ? Number(form.creditDays) : null;
  const draft: DocumentDraft = {
    kind,
    clientId,
    saleCondition: form.saleCondition,
    ...(form.saleCondition === "99" ? { saleConditionOther: form.saleConditionOther } : {}),
    ...(credit ? { creditDays } : {}),
    payments: form.payments.filter((p) => p.code).map((p) => ({ code: p.code, ...(p.code === "99" ? { other: p.other } : {}), ...(p.amount ? { amount: number(p.amount, "payments", NUMBER_MESSAGES.amount) } : {}) })),
    currency: form.currency,
    exchangeRate: form.currency === "CRC" ? "1" : number(form.exchangeRate, "exchangeRate", NUMBER_MESSAGES.exchangeRate),
    lines,
    ...(form.note.trim() ? { note: form.note.trim() } : {}),
    ...(notify.emails.length ? { emails: notify.emails } : {}),
    ...(kind === "fe" && form.remindPayment ? { remindPayment: true } : {}),
    ...(kind === "te" && form.international ? { internationalClient: { name: form.internationalName, cedula: form.internationalCedula } } : {}),
  };
  return { draft, errors };
}

/**
 * An invoice or ticket that replaces a provisional document issued in contingency (Hacienda's
 * situation 2): the reference to it (TipoDocIR 08, code 05 "sustituye comprobante provisional por
 * contingencia", noon of its day in Costa Rica). Null when the block is empty; both fields and a day
 * not after `today` (YYYY-MM-DD) are required otherwise.
 */
export function contingencyReference(form: DocumentFormValues, today: string): { reference: DraftReference | null; errors: FieldError[] } {
  if (!form.contingencyNumber && !form.contingencyDate) return { reference: null, errors: [] };
  const day = form.contingencyDate;
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(day) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day && day <= today;
  if (!form.contingencyNumber || !valid) return { reference: null, errors: [{ field: "contingency", message: FORM_MESSAGES.contingency }] };
  return {
    reference: { docType: "08", number: form.contingencyNumber, issuedAt: new Date(`${day}T12:00:00-06:00`).toISOString(), code: "05", reason: "Sustituye comprobante provisional por contingencia" },
    errors: [],
  };
}

/** Errors keyed by form field path (first message per field). */
export function errorMap(errors: FieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) out[e.field] ??= e.message;
  return out;
}
