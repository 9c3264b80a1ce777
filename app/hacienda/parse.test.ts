import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { HaciendaError } from "./errors.ts";
import { parseReceived } from "./parse.ts";
import { MAX_XML_BYTES, parseXmlSafely } from "./safe-xml.ts";
import { signXml } from "./sign.ts";
import { KINDS_44, testSigner, TEST_NOW, unsignedDoc44, type Kind44, type TestSigner } from "./testing/fixtures/documents.ts";
import { xmlsecVerify } from "./testing/xmlsec.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const samplesDir = process.env.HACIENDA_SAMPLES_DIR ?? resolve(repoRoot, "../shared/hacienda/samples");
const sample = (name: string) => readFileSync(resolve(samplesDir, name));

function refused(input: string | Uint8Array, code: string, message: RegExp) {
  let error: unknown;
  try {
    parseReceived(input);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(HaciendaError);
  expect((error as HaciendaError).code).toBe(code);
  expect((error as HaciendaError).message).toMatch(message);
}

let signer: TestSigner;
beforeAll(() => {
  signer = testSigner();
});

describe("parseReceived on the real samples", () => {
  it("reads the MensajeReceptor v4.2 and verifies its signature", () => {
    const r = parseReceived(sample("MR_v4.2_signed_nehemiascr_factura.xml"));
    expect(r).toMatchObject({
      kind: "MR",
      version: "4.2",
      clave: "50609041900310103715800100001010000004961199999999",
      consecutive: "00100001050000001375",
      issueDate: "2019-04-13T17:15:04-06:00",
      issuer: { id: "3101037158" },
      receiver: { id: "112120468" },
      message: { mensaje: "1", detalle: "Mensaje de Cromatec Soluciones Costa Rica S.A.", montoTotalImpuesto: "24947.54550", totalFactura: "158714.54550" },
    });
    expect(r.signature.valid).toBe(true);
    expect(r.signature.signerCedula).toBe("112120468");
    expect(r.signature.signerSubject).toContain("NEHEMIAS ESAU HERRERA SANCHO");
  });

  it("reads the FacturaElectronica v4.3 (currency under ResumenFactura) and reports its broken signature", () => {
    const r = parseReceived(sample("FE_v4.3_signed_devfynet_fe_firmada.xml"));
    expect(r.kind).toBe("FE");
    expect(r.version).toBe("4.3");
    expect(r.consecutive).toBe("00100001010000000001");
    expect(r.issuer).toEqual({ name: "JUAN LUIS CORTES JUAREZ", idType: "01", id: "503890553", email: "luizcortesj@gmail.com" });
    expect(r.receiver).toEqual({ name: "DEL ORO SOCIEDAD ANONIMA", idType: "02", id: "3101154436", email: "delorosa@delorocr.com" });
    expect([r.currency, r.exchangeRate]).toEqual(["USD", "649.14000"]);
    expect(r.totals).toMatchObject({ totalVenta: "570.00000", totalVentaNeta: "570.00000", totalComprobante: "570.00000", totalImpuesto: null });
    expect(r.lines).toEqual([
      {
        number: "1",
        code: "8314300000000",
        description: "SERVICIOS DE DISEÑO Y DESARROLLO DE SOFTWARE ORIGINALES",
        quantity: "1.000",
        unit: "Sp",
        unitPrice: "570.00000",
        discount: null,
        subtotal: "570.00000",
        tax: "0.00000",
        lineTotal: "570.00000",
        ivaTariff: "01",
      },
    ]);
    expect(r.signature.valid).toBe(false);
    expect(r.signature.errors[0]).toContain("Reference-ab26afbd-e2dc-4cb0-886a-ce2a4a118c7f");
  });
});

describe("parseReceived on every v4.4 comprobante kind", () => {
  it.each(Object.keys(KINDS_44) as Kind44[])("%s", (kind) => {
    const signed = signXml(unsignedDoc44({ kind, lines: 3 }), signer.key, { now: TEST_NOW });
    expect(xmlsecVerify(signed).ok).toBe(true);
    const r = parseReceived(Buffer.from(signed, "utf8"));
    expect(r.kind).toBe(kind);
    expect(r.rootName).toBe(KINDS_44[kind].root);
    expect(r.version).toBe("4.4");
    expect(r.consecutive).toBe(`00100001${KINDS_44[kind].type}0000000042`);
    expect(r.clave).toHaveLength(50);
    expect(r.issueDate).toBe("2026-06-15T10:30:00-06:00");
    expect(r.issuer).toEqual({ name: "Ferretería Ñandú S.A.", idType: "02", id: "3101123456", email: "facturas@nandu.example" });
    expect(r.receiver?.id).toBe("112120468");
    expect([r.currency, r.exchangeRate]).toEqual(["CRC", "1.00000"]);
    expect(r.totals).toEqual({
      totalVenta: "4500.00000",
      totalDescuentos: "0.00000",
      totalVentaNeta: "4500.00000",
      totalImpuesto: "585.00000",
      totalIVADevuelto: null,
      totalOtrosCargos: null,
      totalComprobante: "5085.00000",
    });
    expect(r.lines).toHaveLength(3);
    expect(r.lines[2]).toEqual({
      number: "3",
      code: "2391001000000",
      description: "Café molido & tostado <500 g> 3",
      quantity: "2.500",
      unit: "Unid",
      unitPrice: "1000.00000",
      discount: null,
      subtotal: "2500.00000",
      tax: "325.00000",
      lineTotal: "2825.00000",
      ivaTariff: "08",
    });
    expect(r.signature.valid).toBe(true);
    expect(r.signature.signerCedula).toBe("3101123456");
  });

  it("reads a MensajeHacienda (rejection) with its detail text", () => {
    const mh = `<?xml version="1.0" encoding="UTF-8"?>\n<MensajeHacienda xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/mensajeHacienda"><Clave>50615062600310112345600100001010000000042112345678</Clave><NombreEmisor>Ferretería Ñandú S.A.</NombreEmisor><TipoIdentificacionEmisor>02</TipoIdentificacionEmisor><NumeroCedulaEmisor>3101123456</NumeroCedulaEmisor><NombreReceptor>José Pérez</NombreReceptor><TipoIdentificacionReceptor>01</TipoIdentificacionReceptor><NumeroCedulaReceptor>112120468</NumeroCedulaReceptor><Mensaje>3</Mensaje><EstadoMensaje>rechazado</EstadoMensaje><DetalleMensaje>codigo, mensaje, fila, columna\n-37, "El total no coincide", 1, 1</DetalleMensaje><MontoTotalImpuesto>130.00000</MontoTotalImpuesto><TotalFactura>1130.00000</TotalFactura></MensajeHacienda>`;
    const r = parseReceived(signXml(mh, signer.key, { now: TEST_NOW }));
    expect(r.kind).toBe("MH");
    expect(r.issuer).toEqual({ name: "Ferretería Ñandú S.A.", idType: "02", id: "3101123456", email: null });
    expect(r.receiver).toEqual({ name: "José Pérez", idType: "01", id: "112120468", email: null });
    expect(r.message).toEqual({
      mensaje: "3",
      estado: "rechazado",
      detalle: 'codigo, mensaje, fila, columna\n-37, "El total no coincide", 1, 1',
      montoTotalImpuesto: "130.00000",
      totalFactura: "1130.00000",
    });
    expect(r.signature.valid).toBe(true);
  });

  it("defaults a 4.2 invoice without currency to CRC 1 and reads the 4.2 line code", () => {
    const fe42 = `<FacturaElectronica xmlns="https://tribunet.hacienda.go.cr/docs/esquemas/2017/v4.2/facturaElectronica"><Clave>5</Clave><NumeroConsecutivo>00100001010000000001</NumeroConsecutivo><FechaEmision>2019-01-01T00:00:00-06:00</FechaEmision><Emisor><Nombre>A</Nombre></Emisor><DetalleServicio><LineaDetalle><NumeroLinea>1</NumeroLinea><Codigo><Tipo>04</Tipo><Codigo>X1</Codigo></Codigo><Cantidad>1</Cantidad><Detalle>d</Detalle><Impuesto><Codigo>01</Codigo><Tarifa>13</Tarifa><Monto>1.5</Monto></Impuesto><Impuesto><Codigo>02</Codigo><Tarifa>1</Tarifa><Monto>0.25</Monto></Impuesto></LineaDetalle></DetalleServicio><ResumenFactura><TotalComprobante>10</TotalComprobante></ResumenFactura></FacturaElectronica>`;
    const r = parseReceived(fe42);
    expect(r.version).toBe("4.2");
    expect([r.currency, r.exchangeRate]).toEqual(["CRC", "1"]);
    expect(r.lines[0]!.code).toBe("X1");
    expect(r.lines[0]!.tax).toBe("1.75000");
    expect(r.signature.valid).toBe(false);
    expect(r.signature.errors[0]).toMatch(/no está firmado/);
  });
});

describe("hostile and foreign input is refused in Spanish, harmlessly", () => {
  it("refuses DOCTYPE with an external entity (XXE)", () => {
    refused(
      `<?xml version="1.0"?><!DOCTYPE FacturaElectronica [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><FacturaElectronica xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica"><Clave>&xxe;</Clave></FacturaElectronica>`,
      "XML_DOCTYPE",
      /DOCTYPE/,
    );
  });

  it("refuses entity expansion (billion laughs) before expanding anything", () => {
    const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`).join("")}]><lolz>&lol9;</lolz>`;
    refused(lol, "XML_DOCTYPE", /por seguridad no se procesó/i);
  });

  it("refuses files over 5 MB before parsing", () => {
    const big = Buffer.alloc(MAX_XML_BYTES + 1, 0x20);
    big.write("<a>", 0);
    refused(big, "XML_TOO_LARGE", /máximo permitido es 5,0 MB/);
  });

  it("refuses non-XML input (PDF, text, binary, empty)", () => {
    refused(Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj"), "XML_NOT_XML", /no es un documento XML/);
    refused("hola", "XML_NOT_XML", /no es un documento XML/);
    refused(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0xfe, 0x00]), "XML_ENCODING", /UTF-8/);
    refused("   ", "XML_EMPTY", /vacío/);
    refused("<Factura><sin cerrar>", "XML_MALFORMED", /dañado/);
  });

  it("refuses an unknown root or namespace", () => {
    refused('<Pedido xmlns="urn:x"></Pedido>', "XML_UNKNOWN_ROOT", /«Pedido»/);
    refused("<FacturaElectronica></FacturaElectronica>", "XML_UNKNOWN_ROOT", /sin espacio de nombres/);
    refused('<FacturaElectronica xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/tiqueteElectronico"></FacturaElectronica>', "XML_UNKNOWN_ROOT", /FacturaElectronica/);
    refused('<ReciboElectronicoPago xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.3/reciboElectronicoPago"></ReciboElectronicoPago>', "XML_UNKNOWN_ROOT", /4\.2 a 4\.4/);
  });

  it("refuses absurd nesting depth", () => {
    const deep = `${"<a>".repeat(5000)}${"</a>".repeat(5000)}`;
    expect(() => parseXmlSafely(deep)).toThrow(/niveles de anidamiento/);
  });
});
