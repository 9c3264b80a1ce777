import { describe, expect, it } from "vitest";
import { Decimal } from "../domain/decimal.ts";
import { buildXml } from "./build.ts";
import type { DocumentKind } from "./codes.ts";
import { isHaciendaError } from "./errors.ts";
import { exampleDocument, exampleInvoice } from "./examples.ts";
import type { Comprobante, HaciendaDocument } from "./model.ts";
import { readModel } from "./read-model.ts";
import { checkRules } from "./rules.ts";

const KINDS: DocumentKind[] = ["fe", "te", "nc", "nd", "fec", "fee", "rep", "mr"];

describe("readModel", () => {
  const docs: Array<[string, HaciendaDocument]> = [...KINDS.map((k) => [k, exampleDocument(k)] as [string, HaciendaDocument]), ["fe 50 líneas", exampleInvoice(50)]];
  for (const [name, doc] of docs) {
    it(`${name}: buildXml(readModel(buildXml(doc))) is byte for byte buildXml(doc), and the rules with math pass`, () => {
      const xml = buildXml(doc);
      const read = readModel(xml);
      expect(read.kind).toBe(doc.kind);
      expect(buildXml(read)).toBe(xml);
      expect(checkRules(read, { math: true })).toEqual([]);
    });
  }

  it("round-trips the less common parts: base-forming and fixed-amount taxes, asumido, IVA devuelto, third-party charge, several payments", () => {
    const fe = exampleDocument("fe") as Comprobante;
    const doc: Comprobante = {
      ...fe,
      saleCondition: "99",
      saleConditionOther: "Canje de servicios",
      creditDays: undefined,
      receiver: { ...fe.receiver!, foreignAddress: "Oficina 5, Managua", registroFiscal8707: "R-1" },
      lines: [
        {
          cabys: "2211000000100",
          commercialCodes: [{ type: "01", code: "A-1" }, { type: "04", code: "B&2" }],
          quantity: "3.125",
          unit: "L",
          commercialUnit: "Botella",
          transactionType: "01",
          description: "Bebida con impuesto selectivo",
          serialNumbers: ["SN1", "SN2"],
          medicineRegistry: "MS-123",
          pharmaceuticalForm: "A01",
          unitPrice: "1999.99999",
          discounts: [{ code: "99", codeOther: "Descuento por fidelidad", amount: "12.34567", nature: "Cliente frecuente" }],
          taxes: [{ code: "02", rate: "10" }, { code: "04", amount: "150.5" }, { code: "01", tarifaCode: "08" }],
          ivaCobradoFabrica: "01",
          impuestoAsumidoEmisorFabrica: "5",
        },
        { cabys: "8512000000000", quantity: "1", unit: "Sp", description: "Consulta médica privada", unitPrice: "30000", taxes: [{ code: "01", tarifaCode: "04" }], healthService: true },
      ],
      otherCharges: [{ code: "04", thirdParty: { id: { type: "01", number: "114480790" }, name: "Juan Pérez" }, detail: "Cobro por cuenta de tercero", amount: "1000" }],
      payments: [{ code: "02" }],
      references: [
        { docType: "99", docTypeOther: "Contrato marco", number: "CM-1", issuedAt: new Date("2026-01-05T12:00:00Z"), code: "99", codeOther: "Referencia al contrato", reason: "Según contrato" },
        { docType: "01", issuedAt: new Date("2026-11-01T12:00:00Z") },
      ],
      others: [{ text: "Sin código" }, { text: "Con código & <signos>", code: "X" }],
    };
    const xml = buildXml(doc);
    expect(xml).toMatch(/<TotalIVADevuelto>[1-9]/); // the health-service line paid by card
    const read = readModel(xml);
    expect(buildXml(read)).toBe(xml);
    expect(checkRules(read, { math: true }).filter((e) => e.path.startsWith("ResumenFactura") || e.path.startsWith("DetalleServicio/"))).toEqual([]);

    const split = { ...doc, payments: [{ code: "01", amount: "1000" }, { code: "04", amount: "" }] };
    const total = /<TotalComprobante>([^<]+)</.exec(buildXml({ ...doc, payments: [{ code: "01" }] }))![1];
    split.payments[1].amount = new Decimal(total).minus(1000).toFixed(5);
    const splitXml = buildXml(split);
    expect(buildXml(readModel(splitXml))).toBe(splitXml);
  });

  it("reads the inputs, not only the bytes: clave, dates, parties, lines, references", () => {
    const doc = exampleDocument("fe") as Comprobante;
    const read = readModel(buildXml(doc)) as Comprobante & { stated: Record<string, string> };
    expect(read.clave).toBe(doc.clave);
    expect(read.issuedAt.getTime()).toBe(doc.issuedAt.getTime());
    expect(read.receiver?.id).toEqual(doc.receiver?.id);
    expect(read.lines[1].description).toBe("Horas de consultoría en sistemas & bases de datos <soporte>");
    expect(read.lines[0].discounts?.[0]).toMatchObject({ code: "07", amount: "45000.00000" }); // 5 % of 900 000
    expect(read.lines[2].taxes[0].exoneration?.tarifaExonerada).toBe("13.00");
    expect(read.stated["ResumenFactura/TotalComprobante"]).toMatch(/^\d+\.\d{5}$/);
    expect(read.others).toEqual([{ text: "Orden de compra OC-2026-118", code: "OC" }]);
  });

  it("ignores a signature and tolerates one (the ds:Signature element is not part of the model)", () => {
    const xml = buildXml(exampleDocument("te"));
    const fakeSigned = xml.replace("</TiqueteElectronico>", '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo></ds:SignedInfo></ds:Signature></TiqueteElectronico>');
    expect(buildXml(readModel(fakeSigned))).toBe(xml);
  });

  it("states the altered total and the rules name it in Spanish", () => {
    const xml = buildXml(exampleDocument("fe"));
    const total = /<TotalComprobante>([^<]+)</.exec(xml)![1];
    const altered = xml.replace(`<TotalComprobante>${total}</TotalComprobante>`, "<TotalComprobante>1130.00000</TotalComprobante>");
    const errors = checkRules(readModel(altered), { math: true });
    expect(errors).toEqual([
      { path: "ResumenFactura/TotalComprobante", message: `ResumenFactura/TotalComprobante dice 1130.00000 pero las líneas suman ${total}: corrija el monto o las líneas.` },
    ]);
  });

  it("names line amounts and desglose groups that do not add up", () => {
    const xml = buildXml(exampleDocument("te"));
    const altered = xml.replace(/<MontoTotalLinea>[^<]+<\/MontoTotalLinea>/, "<MontoTotalLinea>1.00000</MontoTotalLinea>");
    const errors = checkRules(readModel(altered), { math: true });
    expect(errors.map((e) => e.path)).toEqual(["DetalleServicio/LineaDetalle[1]/MontoTotalLinea"]);
    expect(errors[0].message).toMatch(/^DetalleServicio\/LineaDetalle\[1\]\/MontoTotalLinea dice 1\.00000 pero el cálculo de la línea da \d+\.\d{5}/);

    const desglose = xml.replace(/(<TotalDesgloseImpuesto><Codigo>01<\/Codigo><CodigoTarifaIVA>08<\/CodigoTarifaIVA><TotalMontoImpuesto>)[^<]+/, "$19.00000");
    expect(checkRules(readModel(desglose), { math: true }).map((e) => e.path)).toEqual(["ResumenFactura/TotalDesgloseImpuesto[Codigo=01,CodigoTarifaIVA=08]/TotalMontoImpuesto"]);
  });

  it("refuses what it cannot read: other roots, hostile XML, missing required fields", () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return isHaciendaError(e) ? e.code : String(e);
      }
      return "no error";
    };
    expect(code(() => readModel("<Factura xmlns='urn:x'/>"))).toBe("XML_UNKNOWN_ROOT");
    expect(code(() => readModel('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x/>'))).toBe("XML_DOCTYPE");
    expect(code(() => readModel(buildXml(exampleDocument("fe")).replace(/<Clave>[^<]+<\/Clave>/, "")))).toBe("XML_MALFORMED");
  });
});
