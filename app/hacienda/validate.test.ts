import { describe, expect, it } from "vitest";
import { buildXml } from "./build.ts";
import { type DocumentKind } from "./codes.ts";
import { exampleDocument } from "./examples.ts";
import type { Comprobante, MensajeReceptor } from "./model.ts";
import { checkRules } from "./rules.ts";
import { testSchemaSet } from "./testing/schemas.ts";
import { validateDocument } from "./validate.ts";

const fe = () => exampleDocument("fe") as Comprobante;
const paths = (d: Parameters<typeof checkRules>[0]) => checkRules(d).map((e) => e.path);

describe("checkRules", () => {
  it("accepts every example", () => {
    for (const k of ["fe", "te", "nc", "nd", "fec", "fee", "rep", "mr"] as DocumentKind[]) expect(checkRules(exampleDocument(k))).toEqual([]);
  });

  it("MedioPago amounts must add up to TotalComprobante", () => {
    const errs = checkRules({ ...fe(), payments: [{ code: "01", amount: "1000" }, { code: "04", amount: "1000" }] });
    expect(errs).toEqual([{ path: "ResumenFactura/MedioPago/TotalMedioPago", message: "Los montos de los medios de pago suman 2000.00000 y deben sumar el total del comprobante (1230970.98762): corríjalos." }]);
    expect(checkRules({ ...fe(), payments: [{ code: "01", amount: "230970.98762" }, { code: "04", amount: "1000000" }] })).toEqual([]);
  });

  it("TipoCambio required, > 0, and 1 for colones", () => {
    expect(checkRules({ ...fe(), currency: { code: "CRC", rate: "505" } })[0].message).toBe("En colones (CRC) el tipo de cambio debe ser 1.");
    expect(paths({ ...fe(), currency: { code: "USD", rate: "0" } })).toEqual(["CodigoTipoMoneda/TipoCambio"]);
    expect(paths({ ...fe(), currency: { code: "USD", rate: "" } })).toEqual(["CodigoTipoMoneda/TipoCambio"]);
    expect(checkRules({ ...fe(), currency: { code: "USD", rate: "505.12" } })).toEqual([]);
  });

  it("NC/ND need a reference", () => {
    const nc = exampleDocument("nc") as Comprobante;
    expect(checkRules({ ...nc, references: [] })[0].message).toMatch(/^Las notas de crédito y débito necesitan la referencia/);
    expect(paths({ ...nc, references: [{ ...nc.references![0], code: undefined }] })).toEqual(["InformacionReferencia[1]/Codigo"]);
  });

  it("CondicionVenta 02 needs PlazoCredito; 99 needs a description", () => {
    expect(paths({ ...fe(), creditDays: undefined })).toEqual(["PlazoCredito"]);
    expect(paths({ ...fe(), saleCondition: "99", creditDays: undefined })).toEqual(["CondicionVentaOtros"]);
  });

  it("activity code 6 digits, CABYS 13 digits", () => {
    expect(paths({ ...fe(), activityCode: "62010" })).toEqual(["CodigoActividadEmisor"]);
    const d = fe();
    d.lines[1] = { ...d.lines[1], cabys: "83131" };
    expect(checkRules(d)).toEqual([{ path: "DetalleServicio/LineaDetalle[2]/CodigoCABYS", message: "El código CABYS de la línea 2 debe tener 13 dígitos: elija el producto o servicio del catálogo CABYS." }]);
  });

  it("exoneration ≤ the line tax rate; discount ≤ line amount", () => {
    const d = fe();
    d.lines[2] = { ...d.lines[2], taxes: [{ ...d.lines[2].taxes[0], exoneration: { ...d.lines[2].taxes[0].exoneration!, tarifaExonerada: "14" } }] };
    expect(checkRules(d)[0].message).toBe("El porcentaje de exoneración de la línea 3 debe estar entre 0 y la tarifa del impuesto (13%): corríjalo.");
    const e = fe();
    e.lines[0] = { ...e.lines[0], discounts: [{ code: "07", amount: "900000.01" }] };
    expect(checkRules(e)[0].message).toMatch(/superan el monto de la línea/);
  });

  it("receptor required for FE; REP only CondicionVenta 09/11", () => {
    expect(paths({ ...fe(), receiver: undefined })).toEqual(["Receptor"]);
    expect(checkRules({ ...(exampleDocument("rep") as Comprobante), saleCondition: "01" })[0].message).toMatch(/solo admite CondicionVenta 09/);
  });

  it("identification lengths and at least one line", () => {
    const d = fe();
    expect(paths({ ...d, receiver: { ...d.receiver!, id: { type: "02", number: "310265432" } } })).toEqual(["Receptor/Identificacion/Numero"]);
    expect(checkRules({ ...d, lines: [] })[0].message).toBe("El documento debe contener minimo un artículo.");
  });

  it("MensajeReceptor: reason required to reject, consecutivo type matches the message", () => {
    const mr = exampleDocument("mr") as MensajeReceptor;
    expect(paths({ ...mr, message: 3, detail: undefined })).toEqual(["DetalleMensaje", "NumeroConsecutivoReceptor"]);
    expect(checkRules({ ...mr, message: 3, detail: "Precio distinto al pactado", receiverConsecutivo: "00100001070000000015" })).toEqual([]);
  });
});

describe("validateDocument", () => {
  const set = testSchemaSet();
  it("returns the XML for a valid document", () => {
    const r = validateDocument(exampleDocument("fe"), set);
    expect(r).toEqual({ ok: true, xml: buildXml(exampleDocument("fe")), errors: [] });
  });
  it("stops at the rules with Spanish errors", () => {
    const r = validateDocument({ ...fe(), currency: { code: "CRC", rate: "2" } }, set);
    expect(r.ok).toBe(false);
    expect(r.xml).toBeUndefined();
    expect(r.errors[0].path).toBe("CodigoTipoMoneda/TipoCambio");
  });
  it("reports the math errors raised while building", () => {
    const r = validateDocument({ ...fe(), payments: [{ code: "01", amount: "1000" }, { code: "04", amount: "1000" }] }, set);
    expect(r).toEqual({ ok: false, errors: [{ path: "MedioPago", message: "Los montos de los medios de pago suman 2000.00000 y deben sumar el total del comprobante (1230970.98762): corríjalos." }] });
    const d = fe();
    d.lines[0] = { ...d.lines[0], discounts: [{ code: "07", amount: "900000.01" }] };
    expect(validateDocument(d, set).errors[0].message).toMatch(/superan el monto de la línea/);
  });
  it("reports schema errors the rules do not cover", () => {
    const r = validateDocument({ ...fe(), receiver: { ...fe().receiver!, name: "x".repeat(101) } }, set);
    expect(r.errors).toEqual([{ path: "FacturaElectronica/Receptor/Nombre", message: "El campo FacturaElectronica/Receptor/Nombre: admite como máximo 100 caracteres (tiene 101); acórtelo." }]);
  });
});
