import { DOMParser } from "@xmldom/xmldom";
import { C14nCanonicalization, ExclusiveCanonicalization } from "xml-crypto";
import { describe, expect, it } from "vitest";
import { Decimal } from "../domain/decimal.ts";
import { buildXml, documentTotals, stripDeclaration, XML_DECLARATION } from "./build.ts";
import { parseClave } from "./clave.ts";
import { ROOTS, type DocumentKind } from "./codes.ts";
import { exampleDocument, exampleInvoice } from "./examples.ts";
import type { Comprobante } from "./model.ts";
import { testSchemaSet } from "./testing/schemas.ts";
import { validateSchema } from "./xsd/index.ts";

const KINDS: DocumentKind[] = ["fe", "te", "nc", "nd", "fec", "fee", "rep", "mr"];

function canonical(xml: string, exclusive: boolean): string {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const c = exclusive ? new ExclusiveCanonicalization() : new C14nCanonicalization();
  return c.process(doc.documentElement as unknown as Element, {}).toString();
}

describe("buildXml", () => {
  for (const kind of KINDS) {
    it(`${kind}: declaration + root already in C14N and exclusive C14N form, schema-valid`, () => {
      const xml = buildXml(exampleDocument(kind));
      expect(xml.startsWith(`${XML_DECLARATION}<${ROOTS[kind].root} xmlns="${ROOTS[kind].ns}">`)).toBe(true);
      const body = stripDeclaration(xml);
      expect(canonical(xml, false)).toBe(body);
      expect(canonical(xml, true)).toBe(body);
      expect(body).not.toMatch(/\/>/); // no self-closing tags
      expect(validateSchema(xml, testSchemaSet(), { unsigned: true })).toEqual([]);
    });
  }

  it("escapes text exactly as C14N does (& < > and CR)", () => {
    const doc = exampleDocument("fe") as Comprobante;
    const tricky = { ...doc, lines: [{ ...doc.lines[0], description: 'A & B <c> "d" \'e\' ñ\r\nfin' }] };
    const xml = buildXml(tricky);
    expect(xml).toContain("<Detalle>A &amp; B &lt;c&gt; \"d\" 'e' ñ&#xD;\nfin</Detalle>");
    expect(canonical(xml, false)).toBe(stripDeclaration(xml));
    const attr = buildXml({ ...doc, others: [{ text: "x", code: 'a"b<c&\td' }] });
    expect(attr).toContain('<OtroTexto codigo="a&quot;b&lt;c&amp;&#x9;d">x</OtroTexto>');
    expect(canonical(attr, false)).toBe(stripDeclaration(attr));
  });

  it("rejects control characters with a Spanish message naming the field", () => {
    const doc = exampleDocument("fe") as Comprobante;
    expect(() => buildXml({ ...doc, receiver: { ...doc.receiver!, name: "Cliente\u0007" } })).toThrow(/Receptor\/Nombre contiene caracteres de control/);
  });

  it("writes FechaEmision in Costa Rica time with −06:00 and the clave date matches", () => {
    const doc = { ...(exampleDocument("fe") as Comprobante), issuedAt: new Date("2026-11-22T05:59:59Z") };
    const xml = buildXml(doc);
    expect(xml).toContain("<FechaEmision>2026-11-21T23:59:59-06:00</FechaEmision>");
    expect(parseClave(doc.clave).consecutivo).toBe(doc.consecutivo);
  });

  it("writes the totals computed by app/domain/totals.ts (FE example, hand-checked)", () => {
    const doc = exampleDocument("fe") as Comprobante;
    const xml = buildXml(doc);
    // Line 1: 2 × 450000 = 900000, 5 % discount 45000, IVA 13 % of 855000 = 111150
    expect(xml).toContain("<MontoTotal>900000.00000</MontoTotal><Descuento><MontoDescuento>45000.00000</MontoDescuento><CodigoDescuento>07</CodigoDescuento>");
    expect(xml).toContain("<Monto>111150.00000</Monto>");
    // Line 2: 10 × 25000 = 250000 at 4 % = 10000
    expect(xml).toContain("<Monto>10000.00000</Monto>");
    // Line 3: 3.5 × 1234.56789 = 4320.987615 → 4320.98762 (half-up), IVA 13 % = 561.7283906 → 561.72839, fully exonerated
    expect(xml).toContain("<MontoTotal>4320.98762</MontoTotal>");
    expect(xml).toContain("<TarifaExonerada>13.00</TarifaExonerada><MontoExoneracion>561.72839</MontoExoneracion>");
    const r = documentTotals(doc).resumen;
    expect(r.totalServGravados).toBe("250000.00000");
    expect(r.totalMercanciasGravadas).toBe("900000.00000");
    expect(r.totalMercExonerada).toBe("4320.98762");
    expect(r.totalVenta).toBe("1154320.98762");
    expect(r.totalVentaNeta).toBe("1109320.98762");
    expect(r.totalImpuesto).toBe("121150.00000");
    expect(r.totalOtrosCargos).toBe("500.00000");
    expect(r.totalComprobante).toBe("1230970.98762");
    expect(xml).toContain("<MedioPago><TipoMedioPago>04</TipoMedioPago><TotalMedioPago>1230970.98762</TotalMedioPago></MedioPago><TotalComprobante>1230970.98762</TotalComprobante>");
  });

  it("writes dollars with the exchange rate (FEE)", () => {
    const xml = buildXml(exampleDocument("fee"));
    expect(xml).toContain("<CodigoTipoMoneda><CodigoMoneda>USD</CodigoMoneda><TipoCambio>505.12000</TipoCambio></CodigoTipoMoneda>");
    expect(xml).toContain("<PartidaArancelaria>090111000000</PartidaArancelaria>");
    expect(xml).not.toContain("<BaseImponible>");
  });

  it("writes the 10 % service charge and up to 4 payment methods", () => {
    const te = exampleDocument("te") as Comprobante;
    const t = documentTotals(te);
    const xml = buildXml({ ...te, payments: [{ code: "01", amount: "100" }, { code: "02", amount: "100" }, { code: "06", amount: "100" }, { code: "04", amount: new Decimal(t.resumen.totalComprobante).minus(300).toFixed(5) }] });
    // 10 % of TotalVentaNeta: (900000 − 45000) + 250000 = 1105000 → 110500
    expect(xml).toContain("<PorcentajeOC>10.00000</PorcentajeOC><MontoCargo>110500.00000</MontoCargo>");
    expect(xml.match(/<MedioPago>/g)).toHaveLength(4);
  });

  it("REP and MR follow their own shapes", () => {
    const rep = buildXml(exampleDocument("rep"));
    expect(rep).toContain("<CondicionVenta>09</CondicionVenta><DetalleServicio><LineaDetalle><NumeroLinea>1</NumeroLinea><Detalle>");
    expect(rep).not.toContain("CodigoActividadEmisor");
    const mr = buildXml(exampleDocument("mr"));
    expect(mr).toContain("<Mensaje>1</Mensaje><DetalleMensaje>Mercadería recibida conforme</DetalleMensaje>");
    expect(mr).toContain("<NumeroConsecutivoReceptor>00100001050000000015</NumeroConsecutivoReceptor>");
  });

  it("builds the 1- and 50-line benchmark invoices", () => {
    for (const n of [1, 50]) {
      const xml = buildXml(exampleInvoice(n));
      expect(xml.match(/<LineaDetalle>/g)).toHaveLength(n);
      expect(validateSchema(xml, testSchemaSet(), { unsigned: true })).toEqual([]);
      expect(canonical(xml, false)).toBe(stripDeclaration(xml));
    }
  });
});
