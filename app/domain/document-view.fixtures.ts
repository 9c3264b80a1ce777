// Realistic document views for tests and the PDF benchmark. All amounts hand-computed and stored as
// strings with 5 decimals, as the issuing use-case stores them.
import { DOCUMENT_KIND_LABELS, type CompanyView, type DocumentView, type LineView } from "./document-view.ts";

const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

export const fixtureLogo = { bytes: Uint8Array.from(Buffer.from(PNG_1X1, "base64")), mime: "image/png" };

export const fixtureCompany: CompanyView = {
  name: "Soluciones Ñandú Sociedad Anónima",
  fantasyName: "Diseño y Cómputo Ñandú",
  identification: { type: "02", number: "3101123456" },
  phone: "2222-3344",
  email: "facturacion@nandu.example",
  address: "San José, Montes de Oca, San Pedro, 200 m norte de la iglesia católica",
  logo: fixtureLogo,
  invoiceFormat: "1",
};

const d5 = (n: string) => (n.includes(".") ? n.padEnd(n.indexOf(".") + 6, "0") : `${n}.00000`);

function line(l: Omit<LineView, "quantity" | "unitPrice" | "discount" | "taxRate" | "taxAmount" | "exoneration" | "lineTotal"> & Record<"quantity" | "unitPrice" | "discount" | "taxRate" | "taxAmount" | "exoneration" | "lineTotal", string>): LineView {
  return {
    ...l,
    quantity: d5(l.quantity),
    unitPrice: d5(l.unitPrice),
    discount: d5(l.discount),
    taxRate: d5(l.taxRate),
    taxAmount: d5(l.taxAmount),
    exoneration: d5(l.exoneration),
    lineTotal: d5(l.lineTotal),
  };
}

const URL_BASE = "https://colibri.example/query-public/";

/** FE in colones, three lines, a 10 % discount on the first. Total ₡74.248,69. */
export const feColones: DocumentView = {
  kind: "fe",
  kindLabel: DOCUMENT_KIND_LABELS.fe,
  consecutive: "00100001010000000125",
  clave: "50614112600310112345600100001010000000125112345678",
  issueDate: new Date("2026-11-14T15:30:00Z"),
  haciendaStatus: "aceptado",
  company: fixtureCompany,
  client: {
    name: "María José Muñoz Peña",
    identification: { type: "01", number: "109870654" },
    email: "maria.munoz@correo.example",
    phone: "8888-1234",
    address: "Heredia, Santo Domingo, frente al parque",
    generic: false,
  },
  currency: { code: "CRC", symbol: "₡" },
  exchangeRate: "1.00000",
  saleCondition: "Crédito",
  payments: ["Transferencia – depósito bancario"],
  paymentTermDays: 30,
  dueDate: new Date("2026-12-14T15:30:00Z"),
  lines: [
    line({ code: "SRV-001", cabys: "8314100000100", description: "Servicio de diseño gráfico (logotipo y línea gráfica)", quantity: "2", unit: "Sp", unitPrice: "25000", discount: "5000", taxRate: "13", taxAmount: "5850", exoneration: "0", lineTotal: "50850" }),
    line({ code: "TEC-ÑU", cabys: "4521100000000", description: "Teclado inalámbrico español con tecla ñ", quantity: "1", unit: "Unid", unitPrice: "18500", discount: "0", taxRate: "13", taxAmount: "2405", exoneration: "0", lineTotal: "20905" }),
    line({ code: "CAF-500", cabys: "2391100000100", description: "Café molido de Tarrazú, 500 g", quantity: "2", unit: "Unid", unitPrice: "1234.5", discount: "0", taxRate: "1", taxAmount: "24.69", exoneration: "0", lineTotal: "2493.69" }),
  ],
  totals: { subtotal: "70969.00000", discount: "5000.00000", tax: "8279.69000", exonerated: "0.00000", ivaDevuelto: "0.00000", otherCharges: "0.00000", total: "74248.69000" },
  totalColones: null,
  references: [],
  note: "Pedido número 4521; entrega en la recepción del edificio.",
  terms: "Pago a 30 días. Cuenta IBAN CR05015202001026284066 a nombre de la compañía.",
  publicUrl: `${URL_BASE}eyJjIjoxLCJkIjoxMjV9.fixture-fe-colones`,
};

/** FE in dollars: 10 h × $85 + 13 % = $960,50; at 505,12 → ₡485.167,76 as stored. */
export const feDollars: DocumentView = {
  ...feColones,
  consecutive: "00100001010000000126",
  clave: "50614112600310112345600100001010000000126187654321",
  client: {
    name: "Ingeniería Acústica del Pacífico S.R.L.",
    identification: { type: "02", number: "3102765432" },
    email: "cuentas@acustica.example",
    phone: null,
    address: "Puntarenas, Esparza",
    generic: false,
  },
  currency: { code: "USD", symbol: "$" },
  exchangeRate: "505.12000",
  saleCondition: "Contado",
  payments: ["Tarjeta $500,00", "Efectivo $460,50"],
  paymentTermDays: null,
  dueDate: null,
  lines: [line({ code: "CONS-H", cabys: "8331100000000", description: "Consultoría en ingeniería acústica (horas)", quantity: "10", unit: "h", unitPrice: "85", discount: "0", taxRate: "13", taxAmount: "110.5", exoneration: "0", lineTotal: "960.5" })],
  totals: { subtotal: "850.00000", discount: "0.00000", tax: "110.50000", exonerated: "0.00000", ivaDevuelto: "0.00000", otherCharges: "0.00000", total: "960.50000" },
  totalColones: "485167.76000",
  note: null,
  publicUrl: `${URL_BASE}eyJjIjoxLCJkIjoxMjZ9.fixture-fe-dollars`,
};

/** TE to the generic client. Total ₡9.492,00. */
export const teGeneric: DocumentView = {
  ...feColones,
  kind: "te",
  kindLabel: DOCUMENT_KIND_LABELS.te,
  consecutive: "00100001040000000310",
  clave: "50614112600310112345600100001040000000310112340000",
  client: { name: "Cliente genérico", identification: null, email: null, phone: null, address: null, generic: true },
  saleCondition: "Contado",
  payments: ["SINPE Móvil"],
  paymentTermDays: null,
  dueDate: null,
  lines: [
    line({ code: "EMP-PIÑ", cabys: "2399100000000", description: "Empanada de piña", quantity: "4", unit: "Unid", unitPrice: "1500", discount: "0", taxRate: "13", taxAmount: "780", exoneration: "0", lineTotal: "6780" }),
    line({ code: "CAF-LEC", cabys: "2391100000200", description: "Café con leche", quantity: "2", unit: "Unid", unitPrice: "1200", discount: "0", taxRate: "13", taxAmount: "312", exoneration: "0", lineTotal: "2712" }),
  ],
  totals: { subtotal: "8400.00000", discount: "0.00000", tax: "1092.00000", exonerated: "0.00000", ivaDevuelto: "0.00000", otherCharges: "0.00000", total: "9492.00000" },
  note: null,
  terms: null,
  publicUrl: `${URL_BASE}eyJjIjoxLCJkIjozMTB9.fixture-te`,
};

/** NC returning the keyboard of feColones. Total ₡20.905,00. */
export const ncOfFe: DocumentView = {
  ...feColones,
  kind: "nc",
  kindLabel: DOCUMENT_KIND_LABELS.nc,
  consecutive: "00100001030000000012",
  clave: "50615112600310112345600100001030000000012111112222",
  issueDate: new Date("2026-11-15T16:00:00Z"),
  haciendaStatus: "procesando",
  saleCondition: "Contado",
  payments: [],
  paymentTermDays: null,
  dueDate: null,
  lines: [feColones.lines[1]],
  totals: { subtotal: "18500.00000", discount: "0.00000", tax: "2405.00000", exonerated: "0.00000", ivaDevuelto: "0.00000", otherCharges: "0.00000", total: "20905.00000" },
  references: [
    { documentType: "Factura electrónica", number: feColones.clave, date: feColones.issueDate, code: "Corrige monto", reason: "Devolución del teclado: llegó sin la tecla ñ" },
  ],
  note: null,
  publicUrl: `${URL_BASE}eyJjIjoxLCJkIjoxMn0.fixture-nc`,
};

/** Quotation (no clave, no Hacienda status), format 2 with CABYS. Total ₡137.295,00. */
export const quotation: DocumentView = {
  ...feColones,
  kind: "qt",
  kindLabel: DOCUMENT_KIND_LABELS.qt,
  consecutive: "0000000042",
  clave: "",
  haciendaStatus: null,
  company: { ...fixtureCompany, invoiceFormat: "2", logo: null },
  saleCondition: "Contado",
  payments: [],
  paymentTermDays: null,
  dueDate: new Date("2026-12-14T15:30:00Z"),
  lines: [line({ code: "MNT-AC", cabys: "8713200000000", description: "Mantenimiento preventivo de aire acondicionado", quantity: "3", unit: "Sp", unitPrice: "45000", discount: "13500", taxRate: "13", taxAmount: "15795", exoneration: "0", lineTotal: "137295" })],
  totals: { subtotal: "135000.00000", discount: "13500.00000", tax: "15795.00000", exonerated: "0.00000", ivaDevuelto: "0.00000", otherCharges: "0.00000", total: "137295.00000" },
  note: "Válida por 30 días; incluye revisión de ductos y limpieza.",
  publicUrl: `${URL_BASE}eyJjIjoxLCJkIjo0Mn0.fixture-qt`,
};

export const allFixtures: Record<string, DocumentView> = { feColones, feDollars, teGeneric, ncOfFe, quotation };

/** A view with n lines (benchmark). */
export function manyLines(n: number): DocumentView {
  const base = feColones.lines[1];
  return { ...feColones, lines: Array.from({ length: n }, (_, i) => ({ ...base, code: `ART-${i + 1}`, description: `${base.description} — línea ${i + 1}` })) };
}
