// The IVA summary for the monthly return (issue 13 point 4; docs/decisions/153-iva-summary.md): for a
// month, the sales of the company's invoices, tickets and debit notes less its credit notes, by IVA
// tariff (CodigoTarifaIVA, Anexos y Estructuras v4.4 Nota 8.1) — taxable base, IVA, the exonerated
// base and IVA —, the IVA devuelto, and the purchases by tariff, so the accountant can compare them
// line by line with the return Hacienda pre-fills in TRIBU-CR (D-150). A working aid: it says so.
// Notes count in the month they are issued (that is when they change the tax due), unlike the
// invoices report, where they are added to their document.
import type { Db } from "../../../db/client.ts";
import { documentsByKind, linesByTariff, receivedByTariff, type ReceivedTariffSums, type ReportQuery, type TariffSums } from "../../../db/queries/reports.ts";
import { dec, type Decimal } from "../../domain/decimal.ts";
import { REPORT_MESSAGES, tariffLabel, tariffOrder } from "../../domain/reports.ts";
import type { FixedTable, ReportDefinition } from "./report.server.ts";

export const IVA_NOTICES = {
  workingAid:
    "Ayuda de trabajo para revisar la declaración del IVA (D-150) que Hacienda prellena en TRIBU-CR con los comprobantes electrónicos: no es la declaración ni la sustituye; compare cada línea y consulte a su contador.",
  notesByMonth: "Las notas de crédito y débito cuentan en el mes en que se emitieron.",
  purchases:
    "Compras: los documentos recibidos que la compañía aceptó (su base e IVA por tarifa, como los detalla cada documento, y el IVA acreditable que declaró en su mensaje de receptor) y las facturas electrónicas de compra (FEC) que emitió.",
} as const;


type Sums = { base: Decimal; tax: Decimal; exBase: Decimal; exTax: Decimal };
const zero = (): Sums => ({ base: dec("0"), tax: dec("0"), exBase: dec("0"), exTax: dec("0") });
const add = (s: Sums, t: TariffSums, sign: 1 | -1) => {
  const f = (v: string) => (sign === 1 ? dec(v) : dec(v).negated());
  s.base = s.base.plus(f(t.base));
  s.tax = s.tax.plus(f(t.tax));
  s.exBase = s.exBase.plus(f(t.exonerated_base));
  s.exTax = s.exTax.plus(f(t.exonerated_tax));
};
const fixed2 = (d: Decimal) => d.toFixed(2);

const SALES_KINDS = [
  { kind: "fe", label: "Facturas electrónicas (FE)", sign: 1 },
  { kind: "te", label: "Tiquetes electrónicos (TE)", sign: 1 },
  { kind: "nd", label: "Notas de débito (ND, suman)", sign: 1 },
  { kind: "nc", label: "Notas de crédito (NC, restan)", sign: -1 },
] as const;

/** The tariffs always listed (the return's lines), then any other tariff that has amounts. */
const MAIN_TARIFFS = ["08", "04", "03", "02", "09", "01", "10", "11"];

/** Net sales by tariff (FE + TE + ND − NC), in the return's order. */
export function salesByTariff(lines: TariffSums[]): { code: string | null; sums: Sums }[] {
  const by = new Map<string | null, Sums>(MAIN_TARIFFS.map((c) => [c, zero()]));
  for (const l of lines) {
    const k = SALES_KINDS.find((x) => x.kind === l.kind);
    if (!k) continue;
    const s = by.get(l.tarifa_code) ?? zero();
    add(s, l, k.sign);
    by.set(l.tarifa_code, s);
  }
  return [...by.entries()].map(([code, sums]) => ({ code, sums })).sort((a, b) => tariffOrder(a.code) - tariffOrder(b.code));
}

/** The month's figures, read once per request (the summary and the tables share them). */
const reads = new WeakMap<ReportQuery, Promise<[TariffSums[], Awaited<ReturnType<typeof documentsByKind>>, TariffSums[], ReceivedTariffSums[]]>>();
function monthFigures(db: Db, q: ReportQuery) {
  let r = reads.get(q);
  if (!r) reads.set(q, (r = Promise.all([linesByTariff(db, q, ["fe", "te", "nd", "nc"]), documentsByKind(db, q, ["fe", "te", "nd", "nc"]), linesByTariff(db, q, ["fec"]), receivedByTariff(db, q)])));
  return r;
}

const tariffHeaders: FixedTable["headers"] = [
  { header: "Código", kind: "text", width: 10 },
  { header: "Tarifa", kind: "text", width: 34 },
  { header: "Base imponible", kind: "money" },
  { header: "IVA", kind: "money" },
  { header: "Base exonerada", kind: "money" },
  { header: "IVA exonerado", kind: "money" },
];

export const ivaReport: ReportDefinition<Record<string, never>> = {
  key: "iva",
  path: "/report-iva",
  title: "Resumen de IVA para la declaración mensual",
  fileName: "resumen-iva-d150.xlsx",
  notes: [IVA_NOTICES.workingAid, REPORT_MESSAGES.converted, IVA_NOTICES.notesByMonth, REPORT_MESSAGES.noRejected, IVA_NOTICES.purchases],
  period: "month",
  search: false,
  async summary(db, q) {
    const [lines, docs, fec, received] = await monthFigures(db, q);
    const net = salesByTariff(lines).reduce((a, t) => ({ base: a.base.plus(t.sums.base), tax: a.tax.plus(t.sums.tax), exBase: a.exBase.plus(t.sums.exBase), exTax: a.exTax.plus(t.sums.exTax) }), zero());
    const devuelto = docs.reduce((a, d) => (d.kind === "nc" ? a.minus(dec(d.iva_devuelto)) : a.plus(dec(d.iva_devuelto))), dec("0"));
    const purchases = [...fec, ...received].reduce((a, l) => ({ base: a.base.plus(dec(l.base)), tax: a.tax.plus(dec(l.tax)) }), { base: dec("0"), tax: dec("0") });
    const creditable = received.reduce((a, l) => a.plus(dec(l.creditable)), dec("0"));
    return {
      rows: 0,
      groups: [
        {
          title: "Ventas del mes (neto de notas)",
          items: [
            { label: "Documentos", kind: "count", value: docs.reduce((n, d) => n + d.quantity, 0) },
            { label: "Base imponible", kind: "money", value: fixed2(net.base) },
            { label: "IVA (débito fiscal)", kind: "money", value: fixed2(net.tax) },
            { label: "Base exonerada", kind: "money", value: fixed2(net.exBase) },
            { label: "IVA exonerado", kind: "money", value: fixed2(net.exTax) },
            { label: "IVA devuelto", kind: "money", value: fixed2(devuelto) },
          ],
        },
        {
          title: "Compras del mes (documentos recibidos aceptados y facturas electrónicas de compra)",
          items: [
            { label: "Base imponible", kind: "money", value: fixed2(purchases.base) },
            { label: "IVA de compras", kind: "money", value: fixed2(purchases.tax) },
            { label: "IVA acreditable (crédito fiscal)", kind: "money", value: fixed2(creditable) },
          ],
        },
      ],
    };
  },
  async tables(db, q) {
    const [lines, docs, fec, received] = await monthFigures(db, q);
    const sales = salesByTariff(lines);
    const total = sales.reduce((a, t) => ({ base: a.base.plus(t.sums.base), tax: a.tax.plus(t.sums.tax), exBase: a.exBase.plus(t.sums.exBase), exTax: a.exTax.plus(t.sums.exTax) }), zero());
    const byKind = SALES_KINDS.map((k) => {
      const s = zero();
      for (const l of lines) if (l.kind === k.kind) add(s, l, 1);
      const d = docs.find((x) => x.kind === k.kind);
      return { values: [k.label, d?.quantity ?? 0, fixed2(s.base), fixed2(s.tax), fixed2(s.exBase), fixed2(s.exTax), d?.iva_devuelto ?? "0.00"] };
    });
    const buys = new Map<string | null, Sums>();
    for (const l of fec) {
      const s = buys.get(l.tarifa_code) ?? zero();
      add(s, l, 1);
      buys.set(l.tarifa_code, s);
    }
    const purchaseRows = [...buys.entries()].sort((a, b) => tariffOrder(a[0]) - tariffOrder(b[0]));
    const receivedRows = [...received].sort((a, b) => tariffOrder(a.tarifa_code) - tariffOrder(b.tarifa_code));
    const receivedTotal = receivedRows.reduce((a, r) => ({ base: a.base.plus(dec(r.base)), tax: a.tax.plus(dec(r.tax)), creditable: a.creditable.plus(dec(r.creditable)) }), { base: dec("0"), tax: dec("0"), creditable: dec("0") });
    const purchaseTotal = purchaseRows.reduce((a, [, s]) => ({ base: a.base.plus(s.base), tax: a.tax.plus(s.tax) }), { base: dec("0"), tax: dec("0") });
    return [
      {
        key: "sales-by-tariff",
        title: "Ventas por tarifa de IVA (facturas, tiquetes y notas de débito, menos notas de crédito)",
        headers: tariffHeaders,
        rows: sales.map((t) => ({ values: [t.code ?? "", tariffLabel(t.code), fixed2(t.sums.base), fixed2(t.sums.tax), fixed2(t.sums.exBase), fixed2(t.sums.exTax)] })),
        footer: ["", "Total", fixed2(total.base), fixed2(total.tax), fixed2(total.exBase), fixed2(total.exTax)],
        empty: "No hay ventas en el mes",
      },
      {
        key: "sales-by-kind",
        title: "Composición por tipo de documento",
        headers: [
          { header: "Documento", kind: "text", width: 34 },
          { header: "Cantidad", kind: "count" },
          { header: "Base imponible", kind: "money" },
          { header: "IVA", kind: "money" },
          { header: "Base exonerada", kind: "money" },
          { header: "IVA exonerado", kind: "money" },
          { header: "IVA devuelto", kind: "money" },
        ],
        rows: byKind,
        empty: "No hay documentos en el mes",
      },
      {
        key: "purchases-by-tariff",
        title: "Facturas electrónicas de compra (FEC) emitidas, por tarifa de IVA",
        headers: tariffHeaders.slice(0, 4),
        rows: purchaseRows.map(([code, s]) => ({ values: [code ?? "", tariffLabel(code), fixed2(s.base), fixed2(s.tax)] })),
        footer: ["", "Total", fixed2(purchaseTotal.base), fixed2(purchaseTotal.tax)],
        empty: "No hay facturas de compra en el mes",
      },
      {
        key: "received-by-tariff",
        title: "Documentos recibidos aceptados, por tarifa de IVA (notas de crédito restan)",
        headers: [...tariffHeaders.slice(0, 4), { header: "IVA acreditable", kind: "money" }],
        rows: receivedRows.map((r) => ({ values: [r.tarifa_code ?? "", r.tarifa_code ? tariffLabel(r.tarifa_code) : "Sin desglose por tarifa", r.base, r.tax, r.creditable] })),
        footer: ["", "Total", fixed2(receivedTotal.base), fixed2(receivedTotal.tax), fixed2(receivedTotal.creditable)],
        empty: "No hay documentos recibidos aceptados en el mes",
      },
    ];
  },
};

