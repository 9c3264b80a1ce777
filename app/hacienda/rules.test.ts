// The business rules of issue 11, one named case per rule: a built document that must fail with a
// Spanish message naming the field, and one that must pass. The source of each rule (page of the
// official "Anexos y Estructuras v4.4", A44, or the real-document evidence) is in the test name.
// The list of rules and their sources: docs/decisions/130-fiscal-rules-and-sources.md.
import { describe, expect, it } from "vitest";
import { buildXml, documentTotals } from "./build.ts";
import { buildClave, buildConsecutivo } from "./clave.ts";
import { exampleDocument } from "./examples.ts";
import type { Comprobante, Line, MensajeReceptor } from "./model.ts";
import { readModel } from "./read-model.ts";
import { checkMensajeAgainstReceived, checkRules, ruleWarnings, type RuleError } from "./rules.ts";
import { testSchemaSet } from "./testing/schemas.ts";
import { validateDocument } from "./validate.ts";

const fe = () => exampleDocument("fe") as Comprobante;
const te = () => exampleDocument("te") as Comprobante;
const nc = () => exampleDocument("nc") as Comprobante;
const fec = () => exampleDocument("fec") as Comprobante;
const rep = () => exampleDocument("rep") as Comprobante;
const mr = () => exampleDocument("mr") as MensajeReceptor;
const at = (errors: RuleError[], path: string) => errors.filter((e) => e.path === path);
const line = (over: Partial<Line> = {}): Line => ({
  cabys: "4523000000100",
  quantity: "1",
  unit: "Unid",
  description: "Artículo de prueba",
  unitPrice: "1000",
  taxes: [{ code: "01", tarifaCode: "08" }],
  ...over,
});

describe("activity codes are CIIU 4 (issue 11 point 1; real 2026 documents write 6201.0, 4752.1, 5610.0; A44 p.18 '6 caracteres')", () => {
  it("an FE with CIIU 4 codes passes, in the XML and through the schema", () => {
    const doc = { ...fe(), activityCode: "4752.1", receiverActivityCode: "5610.0" };
    expect(checkRules(doc)).toEqual([]);
    const r = validateDocument(doc, testSchemaSet());
    expect(r.errors).toEqual([]);
    expect(r.xml).toContain("<CodigoActividadEmisor>4752.1</CodigoActividadEmisor><CodigoActividadReceptor>5610.0</CodigoActividadReceptor>");
  });

  it("an issued FE with an old six-digit code fails, saying what to do", () => {
    const errors = checkRules({ ...fe(), activityCode: "722003" });
    expect(errors).toEqual([
      {
        path: "CodigoActividadEmisor",
        message:
          "El código de actividad 722003 (CodigoActividadEmisor) es del catálogo anterior a TRIBU-CR: Hacienda exige el código CIIU 4 de la forma 0000.0 (por ejemplo 6201.0). Elija la nueva actividad en los datos de la empresa y vuelva a emitir.",
      },
    ]);
    expect(at(checkRules({ ...fe(), receiverActivityCode: "464900" }), "CodigoActividadReceptor")[0].message).toMatch(/catálogo anterior.*datos del cliente/);
    expect(at(checkRules({ ...fe(), activityCode: "62A1.0" }), "CodigoActividadEmisor")[0].message).toMatch(/^El campo CodigoActividadEmisor debe tener un código de actividad CIIU 4/);
  });

  it("a received document of 2025 with an old six-digit code is accepted, with a warning", () => {
    const doc = { ...fe(), activityCode: "722003" };
    expect(checkRules(doc, { mode: "received" })).toEqual([]);
    expect(ruleWarnings(doc)).toEqual([{ path: "CodigoActividadEmisor", message: expect.stringMatching(/catálogo anterior a TRIBU-CR/) }]);
  });

  it("the MensajeReceptor's CodigoActividad is CIIU 4 too (MR XSD maxLength 6)", () => {
    expect(checkRules({ ...mr(), activityCode: "6201.0" })).toEqual([]);
    expect(at(checkRules({ ...mr(), activityCode: "620100" }), "CodigoActividad")[0].message).toMatch(/catálogo anterior a TRIBU-CR/);
  });
});

describe("goods and services by CABYS (A44 pp.50–52: first digit 5–9 service, 0–4 good)", () => {
  it("a service billed per 'Unid' is a service; goods with unit 'Sp' are goods", () => {
    const doc = { ...te(), otherCharges: [], lines: [line({ cabys: "8313100000000", unit: "Unid", unitPrice: "1000" }), line({ cabys: "4523000000100", unit: "Sp", unitPrice: "500" })] };
    const r = documentTotals(doc).resumen;
    expect(r.totalServGravados).toBe("1000.00000");
    expect(r.totalMercanciasGravadas).toBe("500.00000");
    // The read-back model classifies the same way: the stated totals agree with the lines.
    expect(checkRules(readModel(buildXml(doc)), { math: true })).toEqual([]);
  });

  it("a received document that splits by unit instead fails on TotalServGravados and TotalMercanciasGravadas", () => {
    const doc = { ...te(), otherCharges: [], lines: [line({ cabys: "8313100000000", unit: "Unid" })] };
    const xml = buildXml(doc)
      .replace("<TotalServGravados>1000.00000</TotalServGravados>", "<TotalServGravados>0.00000</TotalServGravados>")
      .replace("<TotalMercanciasGravadas>0.00000</TotalMercanciasGravadas>", "<TotalMercanciasGravadas>1000.00000</TotalMercanciasGravadas>");
    const paths = checkRules(readModel(xml), { mode: "received" }).map((e) => e.path);
    expect(paths).toEqual(["ResumenFactura/TotalServGravados", "ResumenFactura/TotalMercanciasGravadas"]);
  });

  it("a line without CABYS falls back to its unit, with a warning (not an error)", () => {
    const doc = { ...exampleDocument("fe"), kind: "fe" } as Comprobante;
    const q = { ...doc, lines: [line({ cabys: undefined, unit: "Sp" })] };
    expect(documentTotals(q).resumen.totalServGravados).toBe("1000.00000");
    expect(ruleWarnings(q)).toEqual([
      {
        path: "DetalleServicio/LineaDetalle[1]/CodigoCABYS",
        message:
          "La línea 1 no tiene código CABYS: se contó como servicio por su unidad de medida (Sp). Hacienda clasifica por el CABYS: indíquelo para que los totales de mercancías y servicios coincidan.",
      },
    ]);
    expect(ruleWarnings(fe())).toEqual([]);
  });
});

describe("CodigoTarifaIVA against the Anexo's table (nota 8.1, A44 p.71; no sujeto A44 p.51–52)", () => {
  const totalsOf = (tarifaCode: "01" | "10" | "11" | "05" | "09", kind: Comprobante["kind"] = "te") =>
    documentTotals({ ...te(), kind, otherCharges: [], lines: [line({ taxes: [{ code: "01", tarifaCode }] })] }).resumen;

  it("tarifa 01 (0 %, art. 32 RLIVA) and 11 are no sujeto, not exento (A44 p.51: 'los códigos de tarifa del IVA 01 y 11')", () => {
    for (const code of ["01", "11"] as const) {
      const r = totalsOf(code);
      expect(r.totalMercNoSujeta).toBe("1000.00000");
      expect(r.totalNoSujeto).toBe("1000.00000");
      expect(r.totalExento).toBe("0.00000");
      expect(r.totalVenta).toBe("1000.00000");
    }
  });

  it("tarifa 10 (exenta, Ley 9635 art. 8) is exento; 09 (0.5 %) and 05 (transitorio 0 %) are gravado", () => {
    expect(totalsOf("10").totalMercanciasExentas).toBe("1000.00000");
    expect(totalsOf("09").totalMercanciasGravadas).toBe("1000.00000");
    expect(totalsOf("05", "nc").totalMercanciasGravadas).toBe("1000.00000");
  });

  it("a received FE that counts tarifa 01 as exento fails on the no-sujeto totals", () => {
    const doc = { ...te(), otherCharges: [], lines: [line({ taxes: [{ code: "01", tarifaCode: "01" }] })] };
    const xml = buildXml(doc)
      .replace("<TotalMercanciasExentas>0.00000</TotalMercanciasExentas>", "<TotalMercanciasExentas>1000.00000</TotalMercanciasExentas>")
      .replace("<TotalMercNoSujeta>1000.00000</TotalMercNoSujeta>", "<TotalMercNoSujeta>0.00000</TotalMercNoSujeta>")
      .replace("<TotalExento>0.00000</TotalExento>", "<TotalExento>1000.00000</TotalExento>")
      .replace("<TotalNoSujeto>1000.00000</TotalNoSujeto>", "<TotalNoSujeto>0.00000</TotalNoSujeto>");
    expect(checkRules(readModel(xml), { mode: "received" }).map((e) => e.path)).toEqual([
      "ResumenFactura/TotalMercanciasExentas",
      "ResumenFactura/TotalMercNoSujeta",
      "ResumenFactura/TotalExento",
      "ResumenFactura/TotalNoSujeto",
    ]);
  });

  it("an FEE has no no-sujeto totals (A44 p.51–52, column FEE '4'): its tarifa 01 lines count as exento and the schema passes", () => {
    const fee = exampleDocument("fee") as Comprobante;
    expect(documentTotals(fee).resumen.totalMercanciasExentas).toBe("7740.00000");
    expect(documentTotals(fee).resumen.totalNoSujeto).toBe("0.00000");
    expect(validateDocument(fee, testSchemaSet()).errors).toEqual([]);
  });

  it("tarifas 05, 06 and 07 fail on invoices and tickets and pass on notes (A44 p.71, footnotes 29–31)", () => {
    for (const code of ["05", "06", "07"] as const) {
      const errors = checkRules({ ...fe(), lines: [line({ taxes: [{ code: "01", tarifaCode: code }] })] });
      expect(errors).toEqual([
        {
          path: "DetalleServicio/LineaDetalle[1]/Impuesto/CodigoTarifaIVA",
          message: `La tarifa de IVA ${code} (transitoria) de la línea 1 solo se admite en notas de crédito y débito (Anexo 4.4, nota 8.1): elija la tarifa vigente.`,
        },
      ]);
      expect(at(checkRules({ ...te(), lines: [line({ taxes: [{ code: "01", tarifaCode: code }] })] }), "DetalleServicio/LineaDetalle[1]/Impuesto/CodigoTarifaIVA")).toHaveLength(1);
      expect(checkRules({ ...nc(), lines: [line({ taxes: [{ code: "01", tarifaCode: code }] })] })).toEqual([]);
    }
  });
});

describe("impuesto asumido por el emisor o cobrado a nivel de fábrica (A44 p.46, p.53; docs/decisions/131)", () => {
  it("TotalDesgloseImpuesto equals TotalImpuesto when the issuer assumes part of the tax (was 130 vs 100)", () => {
    const doc = { ...te(), otherCharges: [], lines: [line({ impuestoAsumidoEmisorFabrica: "30" })] };
    const r = documentTotals(doc).resumen;
    expect(r.totalImpuesto).toBe("100.00000");
    expect(r.totalImpAsumEmisorFabrica).toBe("30.00000");
    expect(r.totalDesgloseImpuesto).toEqual([{ code: "01", tarifaCode: "08", total: "100.00000" }]);
    expect(validateDocument(doc, testSchemaSet()).errors).toEqual([]);
  });

  it("a received document whose desglose leaves out the assumed tax fails on that group", () => {
    const doc = { ...te(), otherCharges: [], lines: [line({ impuestoAsumidoEmisorFabrica: "30" })] };
    const xml = buildXml(doc).replace("<TotalMontoImpuesto>100.00000</TotalMontoImpuesto>", "<TotalMontoImpuesto>130.00000</TotalMontoImpuesto>");
    expect(checkRules(readModel(xml), { mode: "received" })).toEqual([
      {
        path: "ResumenFactura/TotalDesgloseImpuesto[Codigo=01,CodigoTarifaIVA=08]/TotalMontoImpuesto",
        message: "ResumenFactura/TotalDesgloseImpuesto[Codigo=01,CodigoTarifaIVA=08]/TotalMontoImpuesto dice 130.00000 pero las líneas suman 100.00000: corrija el monto o las líneas.",
      },
    ]);
  });

  it("the assumed amount is taken from the line's IVA before its other taxes", () => {
    const doc = { ...te(), otherCharges: [], lines: [line({ taxes: [{ code: "02", rate: "10" }, { code: "01", tarifaCode: "08" }], impuestoAsumidoEmisorFabrica: "150" })] };
    const r = documentTotals(doc).resumen;
    // 02: 100; IVA on 1100: 143 → the 150 assumed takes 143 from the IVA and 7 from the 02.
    expect(r.totalDesgloseImpuesto).toEqual([
      { code: "02", total: "93.00000" },
      { code: "01", tarifaCode: "08", total: "0.00000" },
    ]);
    expect(r.totalImpuesto).toBe("93.00000");
  });

  it("goods with IVA cobrado a nivel de fábrica are left out of TotalMercanciasGravadas (A44 p.51)", () => {
    const r = documentTotals({ ...te(), otherCharges: [], lines: [line({ ivaCobradoFabrica: "01" }), line()] }).resumen;
    expect(r.totalMercanciasGravadas).toBe("1000.00000");
    expect(r.totalMercanciasExentas).toBe("1000.00000");
    expect(r.totalVenta).toBe("2000.00000");
  });

  it("IVACobradoFabrica 02 needs tarifa 10 exenta (A44 p.36)", () => {
    const bad = { ...te(), lines: [line({ ivaCobradoFabrica: "02" })] };
    expect(checkRules(bad)).toEqual([
      {
        path: "DetalleServicio/LineaDetalle[1]/Impuesto/CodigoTarifaIVA",
        message: "Con IVACobradoFabrica 02 (exento por el sistema de IVA a nivel de fábrica) el IVA de la línea 1 debe usar la tarifa 10 (exenta), no 08.",
      },
    ]);
    expect(checkRules({ ...te(), lines: [line({ ivaCobradoFabrica: "02", taxes: [{ code: "01", tarifaCode: "10" }] })] })).toEqual([]);
  });
});

describe("MedioPago on cash sales (A44 p.54: obligatorio excepto CondicionVenta 02, 08 y 10)", () => {
  it("a cash sale (01) without MedioPago fails", () => {
    expect(checkRules({ ...te(), payments: [] })).toEqual([
      {
        path: "ResumenFactura/MedioPago",
        message:
          "Falta el medio de pago: con la condición de venta 01 (no es crédito) indique cómo se pagó (efectivo, tarjeta, transferencia, SINPE Móvil…). Solo las ventas a crédito (02, 08 y 10) pueden ir sin medio de pago.",
      },
    ]);
    for (const sc of ["03", "04", "05", "06", "07", "14", "15"])
      expect(at(checkRules({ ...fe(), saleCondition: sc, creditDays: undefined, payments: [] }), "ResumenFactura/MedioPago")).toHaveLength(1);
  });

  it("credit sales (02, 08, 10) may go without MedioPago, and a cash sale with one passes", () => {
    expect(checkRules({ ...fe(), payments: [] })).toEqual([]);
    expect(checkRules({ ...fe(), saleCondition: "08", creditDays: undefined, payments: [] })).toEqual([]);
    expect(checkRules({ ...fe(), saleCondition: "10", creditDays: undefined, payments: [] })).toEqual([]);
    expect(checkRules(te())).toEqual([]);
  });

  it("TotalMedioPago must be greater than zero (A44 p.55)", () => {
    expect(at(checkRules({ ...te(), payments: [{ code: "01", amount: "0" }, { code: "02", amount: "1" }] }), "ResumenFactura/MedioPago/TotalMedioPago")[0].message).toBe(
      "El monto de cada medio de pago debe ser mayor que cero (Anexo 4.4, p. 55).",
    );
  });
});

describe("codes reserved for notes (A44 p.71 nota 8.1; p.74 nota 10.1; p.72–73 notas 9 y 10)", () => {
  const exonerated = (docType: string) =>
    line({ taxes: [{ code: "01", tarifaCode: "08", exoneration: { docType, number: "AL-123", institution: "01", issuedAt: new Date("2026-01-01T12:00:00Z"), tarifaExonerada: "13" } }] });

  it("exoneration document types 01, 05, 06 and 07 fail on invoices and tickets", () => {
    for (const docType of ["01", "05", "06", "07"]) {
      expect(checkRules({ ...fe(), lines: [exonerated(docType)] })).toEqual([
        {
          path: "DetalleServicio/LineaDetalle[1]/Impuesto/Exoneracion/TipoDocumentoEX1",
          message: `El tipo de exoneración ${docType} de la línea 1 solo se admite en notas de crédito y débito (Anexo 4.4, nota 10.1): elija el tipo de documento vigente de la exoneración.`,
        },
      ]);
      expect(at(checkRules({ ...te(), lines: [exonerated(docType)] }), "DetalleServicio/LineaDetalle[1]/Impuesto/Exoneracion/TipoDocumentoEX1")).toHaveLength(1);
      expect(checkRules({ ...nc(), lines: [exonerated(docType)] })).toEqual([]);
    }
  });

  it("the other exoneration types pass on an invoice", () => {
    for (const docType of ["02", "03", "04", "08", "09", "10", "11"]) expect(checkRules({ ...fe(), lines: [exonerated(docType)] })).toEqual([]);
  });

  it("reference document type 16 only in an FEC, 09 only in notes; code 12 only in an NC, 17 only in a REP", () => {
    const ref = (docType: string, code: string) => [{ docType, number: "X-1", issuedAt: new Date("2026-11-20T12:00:00Z"), code, reason: "Referencia de prueba" }];
    expect(at(checkRules({ ...fe(), references: ref("16", "04") }), "InformacionReferencia[1]/TipoDocIR")[0].message).toMatch(/solo se admite en la factura electrónica de compra/);
    expect(checkRules({ ...fec(), references: ref("16", "04") })).toEqual([]);
    expect(at(checkRules({ ...fe(), references: ref("09", "04") }), "InformacionReferencia[1]/TipoDocIR")[0].message).toMatch(/solo se admite en notas de crédito y débito/);
    expect(checkRules({ ...nc(), references: ref("09", "06") })).toEqual([]);
    expect(at(checkRules({ ...exampleDocument("nd"), references: ref("01", "12") } as Comprobante), "InformacionReferencia[1]/Codigo")[0].message).toMatch(/solo se admite en notas de crédito/);
    expect(checkRules({ ...nc(), references: ref("01", "12") })).toEqual([]);
    expect(at(checkRules({ ...fe(), references: ref("01", "17") }), "InformacionReferencia[1]/Codigo")[0].message).toMatch(/recibo electrónico de pago/);
  });

  it("a REP refers only to document types 01, 02, 03, 04 and 08 (A44 p.56)", () => {
    expect(checkRules(rep())).toEqual([]);
    expect(at(checkRules({ ...rep(), references: [{ ...rep().references![0], docType: "14" }] }), "InformacionReferencia[1]/TipoDocIR")[0].message).toMatch(/^El recibo de pago solo puede referirse/);
  });
});

describe("OtrosCargos: at most 15 (A44 p.47)", () => {
  const charges = (n: number) => Array.from({ length: n }, (_, i) => ({ code: "99", codeOther: "Cargo varios", detail: `Cargo ${i + 1}`, amount: "10" }));
  it("16 otros cargos fail with a clear message; 15 pass", () => {
    expect(checkRules({ ...fe(), otherCharges: charges(16) })).toEqual([
      { path: "OtrosCargos", message: "El comprobante tiene 16 otros cargos y Hacienda admite como máximo 15: agrupe o quite 1." },
    ]);
    expect(checkRules({ ...fe(), otherCharges: charges(15) })).toEqual([]);
    // validateDocument stops at the rules: the user reads this message, not the schema's.
    expect(validateDocument({ ...fe(), otherCharges: charges(16) }, testSchemaSet()).errors).toEqual([
      { path: "OtrosCargos", message: "El comprobante tiene 16 otros cargos y Hacienda admite como máximo 15: agrupe o quite 1." },
    ]);
  });

  it("an invoice of only a third-party charge (04) needs no lines (A44 p.26, p.47)", () => {
    expect(checkRules({ ...fe(), lines: [], otherCharges: [{ code: "04", thirdParty: { id: { type: "01", number: "114480790" }, name: "Juan Pérez" }, detail: "Cobro por cuenta de tercero", amount: "1000" }] })).toEqual([]);
    expect(checkRules({ ...fe(), lines: [], otherCharges: [{ code: "03", detail: "Timbre", amount: "10" }] })[0].message).toBe("El documento debe contener minimo un artículo.");
  });
});

describe("MensajeReceptor (A44 pp.60–61)", () => {
  it("DetalleMensaje has at least 5 characters when given (p.60)", () => {
    expect(checkRules({ ...mr(), detail: "Ok" })).toEqual([
      { path: "DetalleMensaje", message: "El detalle del mensaje (DetalleMensaje) debe tener al menos 5 caracteres: explique el motivo en una frase." },
    ]);
    expect(checkRules({ ...mr(), detail: "Recibido" })).toEqual([]);
    expect(checkRules({ ...mr(), detail: undefined })).toEqual([]);
  });

  it("MontoTotalImpuestoAcreditar ≤ MontoTotalImpuesto (p.61)", () => {
    expect(checkRules({ ...mr(), creditableTax: "13000.01" })).toEqual([
      {
        path: "MontoTotalImpuestoAcreditar",
        message: "El impuesto a acreditar (13000.01000) no puede ser mayor que el impuesto total del comprobante (13000.00000): corríjalo.",
      },
    ]);
    expect(checkRules({ ...mr(), creditableTax: "6500" })).toEqual([]);
  });

  const received = { clave: mr().clave, issuer: { id: "3102654321" }, receiver: { id: "3101123456" }, totals: { totalImpuesto: "13000.00000", totalComprobante: "113000.00" } };
  it("its clave, issuer, receiver and amounts match the received comprobante (p.60–61)", () => {
    expect(checkMensajeAgainstReceived(mr(), received)).toEqual([]);
    const wrong = checkMensajeAgainstReceived({ ...mr(), issuerId: "3101999999", receiverId: "3101000001", taxTotal: "12000", total: "1.00" }, received);
    expect(wrong.map((e) => e.path)).toEqual(["NumeroCedulaEmisor", "NumeroCedulaReceptor", "MontoTotalImpuesto", "TotalFactura"]);
    expect(wrong[3].message).toBe("TotalFactura (1.00) debe ser el total del comprobante recibido (113000.00).");
    expect(checkMensajeAgainstReceived({ ...mr(), clave: "5".repeat(50) }, received)[0]).toEqual({
      path: "Clave",
      message: `La clave del mensaje (${"5".repeat(50)}) no es la del comprobante recibido (${mr().clave}).`,
    });
  });
});

describe("the clave agrees with the XML (A44 pp.64–68, nota 3 y 4.1)", () => {
  it("a clave with another date, consecutivo or issuer fails", () => {
    const doc = fe();
    const other = (over: Partial<Parameters<typeof buildClave>[0]>) =>
      buildClave({ issuedAt: doc.issuedAt, issuerId: doc.issuer.id.number, consecutivo: doc.consecutivo, situacion: 1, securityCode: "20261121", ...over });
    expect(at(checkRules({ ...doc, clave: other({ issuedAt: new Date("2026-11-25T15:00:00Z") }) }), "Clave")[0].message).toBe(
      "La fecha de la clave (25/11/26) no coincide con FechaEmision (21/11/26, hora de Costa Rica).",
    );
    expect(at(checkRules({ ...doc, clave: other({ consecutivo: buildConsecutivo({ branch: 1, terminal: 1, docType: "01", sequence: 43 }) }) }), "Clave")[0].message).toMatch(/no coincide con NumeroConsecutivo/);
    expect(at(checkRules({ ...doc, clave: other({ issuerId: "3101999999" }) }), "Clave")[0].message).toBe(
      "La identificación de la clave (003101999999) no coincide con la del emisor (3101123456).",
    );
    expect(checkRules(doc)).toEqual([]);
  });

  it("reads the clave's date in Costa Rica time around midnight (UTC−6), as buildClave writes it", () => {
    for (const iso of ["2026-11-22T05:59:59Z", "2026-11-22T06:00:00Z", "2026-12-31T23:30:00Z", "2027-01-01T05:00:00Z"]) {
      const doc = fe();
      const issuedAt = new Date(iso);
      const clave = buildClave({ issuedAt, issuerId: doc.issuer.id.number, consecutivo: doc.consecutivo, situacion: 1, securityCode: "20261121" });
      expect(checkRules({ ...doc, issuedAt, clave })).toEqual([]);
    }
  });
});

describe("the 2026 revision: alphanumeric cédula jurídica and clave (xsd/v4.4-2026 ClaveType [a-zA-Z0-9]{50}; DOJO spec 2.3)", () => {
  it("an issuer with the alphanumeric cédula jurídica 3101A00001 builds an alphanumeric clave that the 2026 schema accepts", () => {
    const doc = fe();
    const issuer = { ...doc.issuer, id: { type: "02" as const, number: "3101A00001" } };
    const clave = buildClave({ issuedAt: doc.issuedAt, issuerId: "3101A00001", issuerIdType: "02", consecutivo: doc.consecutivo, situacion: 1, securityCode: "20261121" });
    expect(clave.slice(9, 21)).toBe("003101A00001");
    const built = { ...doc, issuer, providerId: "3101A00001", clave };
    expect(checkRules(built)).toEqual([]);
    expect(validateDocument(built, testSchemaSet()).errors).toEqual([]);
  });

  it("a cédula jurídica with lower-case letters or letters in the first four positions fails", () => {
    const doc = fe();
    for (const number of ["3101a00001", "31A1000001"])
      expect(at(checkRules({ ...doc, receiver: { ...doc.receiver!, id: { type: "02", number } } }), "Receptor/Identificacion/Numero")[0].message).toMatch(/^La cédula jurídica de el receptor debe tener 10 caracteres/);
    expect(() => buildClave({ issuedAt: doc.issuedAt, issuerId: "31A1000001", issuerIdType: "02", consecutivo: doc.consecutivo, situacion: 1, securityCode: "20261121" })).toThrow(/4 dígitos y luego 6 dígitos o letras/);
  });
});

describe("received mode: Hacienda's 2-decimal margin (A44 p.12) and the exact checks for what Colibrí issues", () => {
  const twoDecimals = (xml: string) => xml.replace(/>(\d+)\.(\d{2})\d{3}</g, (_, i: string, d: string) => `>${i}.${d}<`);
  const roundedHalfUp = (xml: string) =>
    xml.replace(/<(Monto|MontoTotal|SubTotal|BaseImponible|ImpuestoNeto|MontoTotalLinea|MontoCargo|MontoDescuento|Total[A-Za-z]*|MontoExoneracion)>(\d+\.\d{5})</g, (_, tag: string, v: string) => {
      const cents = Math.round(Number(v) * 100 + 1e-9) / 100;
      return `<${tag}>${cents.toFixed(2)}<`;
    });

  it("a supplier's invoice whose amounts are rounded to 2 decimals passes in received mode and fails in issued mode", () => {
    const xml = roundedHalfUp(buildXml(fe()));
    expect(xml).toContain("<TotalComprobante>1230970.99</TotalComprobante>");
    expect(checkRules(readModel(xml), { mode: "received" })).toEqual([]);
    expect(checkRules(readModel(xml)).length).toBeGreaterThan(0);
    expect(twoDecimals("<a>1.23456<")).toBe("<a>1.23<");
  });

  it("a TotalComprobante of 1.00 on a 1,000 colones sale fails in both modes", () => {
    const doc = { ...te(), otherCharges: [], lines: [line({ taxes: [{ code: "01", tarifaCode: "10" }] })] };
    const xml = buildXml(doc).replace("<TotalComprobante>1000.00000</TotalComprobante>", "<TotalComprobante>1.00</TotalComprobante>");
    const stated = { path: "ResumenFactura/TotalComprobante", message: "ResumenFactura/TotalComprobante dice 1.00 pero las líneas suman 1000.00000: corrija el monto o las líneas." };
    expect(checkRules(readModel(xml), { mode: "issued" })).toEqual([stated]);
    // Received: its MedioPago (1000.00000) does not add up to the total it states either.
    expect(checkRules(readModel(xml), { mode: "received" })).toEqual([
      { path: "ResumenFactura/MedioPago/TotalMedioPago", message: "Los montos de los medios de pago suman 1000.00000 y deben sumar el total del comprobante (1.00000): corríjalos." },
      stated,
    ]);
  });
});

describe("PrecioUnitario greater than zero (A44 p.35)", () => {
  it("a line priced 0 fails; 0.00001 passes", () => {
    expect(at(checkRules({ ...te(), lines: [line({ unitPrice: "0" })] }), "DetalleServicio/LineaDetalle[1]/PrecioUnitario")[0].message).toBe("El precio unitario de la línea 1 debe ser un número mayor que cero.");
    expect(checkRules({ ...te(), lines: [line({ unitPrice: "0.00001" })] })).toEqual([]);
  });
});
