/**
 * Realistic, complete example documents for tests, golden files, the sandbox and benchmarks.
 * Deterministic: fixed instants, fixed security codes.
 */
import { buildClave, buildConsecutivo } from "./clave.ts";
import { MR_DOC_TYPE, ROOTS, type DocumentKind } from "./codes.ts";
import type { Comprobante, HaciendaDocument, Line, MensajeReceptor, Party } from "./model.ts";

export const EXAMPLE_ISSUED_AT = new Date("2026-11-21T15:30:00Z"); // 09:30 in Costa Rica

export const exampleIssuer: Party = {
  name: "Soluciones Colibrí Sociedad Anónima",
  id: { type: "02", number: "3101123456" },
  tradeName: "Colibrí Software",
  location: { province: "1", canton: "01", district: "08", barrio: "Sabana Norte", otherSigns: "Del ICE 200 metros norte, edificio Torre Sabana, piso 3" },
  phone: { countryCode: "506", number: "22905555" },
  emails: ["facturacion@colibri.cr"],
};

export const exampleClient: Party = {
  name: "Distribuidora La Sabana Limitada",
  id: { type: "02", number: "3102654321" },
  tradeName: "La Sabana",
  location: { province: "4", canton: "01", district: "01", otherSigns: "Costado sur del parque central de Heredia, local 4" },
  phone: { countryCode: "506", number: "22614444" },
  emails: ["cuentasporpagar@lasabana.cr"],
};

const exoneration = {
  docType: "03",
  number: "AL-00012345-24",
  article: "8",
  inciso: "2",
  institution: "01",
  issuedAt: new Date("2026-02-01T14:00:00Z"),
  tarifaExonerada: "13",
};

/** Three lines: goods at 13 % with a discount, a service at 4 %, goods at 13 % with an exoneration. */
function exampleLines(withExoneration: boolean): Line[] {
  return [
    {
      cabys: "4523000000100",
      commercialCodes: [{ type: "04", code: "LAP-14" }],
      quantity: "2",
      unit: "Unid",
      description: "Computadora portátil 14 pulgadas, 16 GB RAM",
      unitPrice: "450000",
      discounts: [{ code: "07", percent: "5", nature: "Descuento comercial por volumen" }],
      taxes: [{ code: "01", tarifaCode: "08" }],
    },
    {
      cabys: "8313100000000",
      quantity: "10",
      unit: "Sp",
      description: "Horas de consultoría en sistemas & bases de datos <soporte>",
      unitPrice: "25000",
      taxes: [{ code: "01", tarifaCode: "04" }],
    },
    {
      cabys: "4529900000200",
      quantity: "3.5",
      unit: "Kg",
      description: "Cable de red categoría 6",
      unitPrice: "1234.56789",
      taxes: [{ code: "01", tarifaCode: "08", ...(withExoneration ? { exoneration } : {}) }],
    },
  ];
}

function header(kind: Exclude<DocumentKind, "mr">, sequence: number) {
  const consecutivo = buildConsecutivo({ branch: 1, terminal: 1, docType: ROOTS[kind].docType as never, sequence });
  return {
    consecutivo,
    clave: buildClave({ issuedAt: EXAMPLE_ISSUED_AT, issuerId: exampleIssuer.id.number, consecutivo, situacion: 1, securityCode: "20261121" }),
  };
}

const referencedInvoice = {
  docType: "01",
  number: "50621112600310112345600100001010000000001120261121",
  issuedAt: new Date("2026-11-20T16:00:00Z"),
};

export function exampleDocument(kind: DocumentKind): HaciendaDocument {
  const base = {
    issuedAt: EXAMPLE_ISSUED_AT,
    providerId: exampleIssuer.id.number,
    activityCode: "6201.0",
    issuer: exampleIssuer,
    currency: { code: "CRC", rate: "1" },
  };
  switch (kind) {
    case "fe":
      return {
        kind,
        ...header(kind, 42),
        ...base,
        receiverActivityCode: "4649.0",
        receiver: exampleClient,
        saleCondition: "02",
        creditDays: 30,
        lines: exampleLines(true),
        otherCharges: [{ code: "03", detail: "Timbre de bomberos", amount: "500" }],
        payments: [{ code: "04" }],
        others: [{ text: "Orden de compra OC-2026-118", code: "OC" }],
      };
    case "te":
      return {
        kind,
        ...header(kind, 7),
        ...base,
        saleCondition: "01",
        lines: exampleLines(false).slice(0, 2),
        otherCharges: [{ code: "06", detail: "Impuesto de servicio 10%", percent: "10" }],
        payments: [{ code: "01" }],
      };
    case "nc":
    case "nd":
      return {
        kind,
        ...header(kind, 3),
        ...base,
        receiver: exampleClient,
        saleCondition: "01",
        lines: [exampleLines(false)[kind === "nc" ? 0 : 1]],
        payments: [{ code: "04" }],
        references: [{ ...referencedInvoice, code: kind === "nc" ? "06" : "02", reason: kind === "nc" ? "Devolución de una computadora" : "Horas adicionales no facturadas" }],
      };
    case "fec":
      return {
        kind,
        ...header(kind, 5),
        ...base,
        issuer: {
          name: "José Pérez Mora (productor agrícola)",
          id: { type: "06", number: "114480790" },
          foreignAddress: "Finca Los Naranjos, 2 km al este de la iglesia de Santa María de Dota",
          emails: [],
        },
        receiver: exampleIssuer,
        receiverActivityCode: "6201.0",
        activityCode: undefined,
        saleCondition: "01",
        lines: [
          { cabys: "0113100000100", quantity: "50", unit: "Kg", description: "Café en grano oro", unitPrice: "3200", taxes: [{ code: "01", tarifaCode: "02" }] },
        ],
        payments: [{ code: "04" }],
        references: [{ docType: "14", number: "REG-ESP-2026-0005", issuedAt: new Date("2026-11-21T14:00:00Z"), code: "04", reason: "Compra a productor de régimen especial" }],
      };
    case "fee":
      return {
        kind,
        ...header(kind, 9),
        ...base,
        currency: { code: "USD", rate: "505.12" },
        receiver: {
          name: "Pacific Coffee Importers LLC",
          id: { type: "05", number: "US-84-1234567" },
          foreignAddress: "1200 Harbor Blvd, Suite 400, Long Beach, CA 90802, United States",
          emails: ["ap@pacificcoffee.example"],
        },
        saleCondition: "01",
        lines: [
          {
            cabys: "0113100000100",
            tariffHeading: "090111000000",
            quantity: "1200",
            unit: "Kg",
            description: "Café verde sin tostar, grado SHB",
            unitPrice: "6.45",
            discounts: [{ code: "04", amount: "150", nature: "Descuento por volumen" }],
            taxes: [{ code: "01", tarifaCode: "01" }],
          },
        ],
        otherCharges: [{ code: "05", detail: "Flete internacional y seguro", amount: "320" }],
        payments: [{ code: "04" }],
      };
    case "rep":
      return {
        kind,
        ...header(kind, 2),
        ...base,
        activityCode: undefined,
        receiver: { name: "Ministerio de Educación Pública", id: { type: "02", number: "2100042002" }, emails: ["pagos@mep.go.cr"] },
        saleCondition: "09",
        lines: [{ quantity: "1", unit: "Os", description: "Pago de servicios de soporte, factura 42", unitPrice: "250000", taxes: [{ code: "01", tarifaCode: "08" }] }],
        payments: [{ code: "04" }],
        references: [{ ...referencedInvoice, code: "17", reason: "Pago de factura a crédito al Estado" }],
      };
    case "mr": {
      const m: MensajeReceptor = {
        kind: "mr",
        clave: "50621112600310265432100100001010000001234112345678",
        issuerId: "3102654321",
        issuedAt: EXAMPLE_ISSUED_AT,
        message: 1,
        detail: "Mercadería recibida conforme",
        taxTotal: "13000",
        activityCode: "6201.0",
        taxCondition: "01",
        creditableTax: "13000",
        applicableExpense: "100000",
        total: "113000",
        receiverId: exampleIssuer.id.number,
        receiverConsecutivo: buildConsecutivo({ branch: 1, terminal: 1, docType: MR_DOC_TYPE[1], sequence: 15 }),
      };
      return m;
    }
  }
}

/** An FE with `lines` lines (two tax rates, a discount every third line), for benchmarks. */
export function exampleInvoice(lines: number): Comprobante {
  const doc = exampleDocument("fe") as Comprobante;
  const pool = exampleLines(false);
  return {
    ...doc,
    otherCharges: [],
    lines: Array.from({ length: lines }, (_, i) => ({ ...pool[i % pool.length], description: `${pool[i % pool.length].description} (${i + 1})` })),
  };
}
