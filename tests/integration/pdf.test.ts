// The document PDF: every fixture in both invoice formats renders; its text (pdftotext, poppler-utils:
// a missing tool fails the test) keeps ñ and accents, the clave, the formatted totals and the legal
// notice; the QR printed on the page decodes (pdftoppm + jsqr) to the public URL.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import jsQR from "jsqr";
import { describe, expect, it } from "vitest";
import { allFixtures, feColones, feDollars, manyLines, ncOfFe, quotation, teGeneric } from "../../app/domain/document-view.fixtures.ts";
import { DOCUMENT_KIND_LABELS, type DocumentView } from "../../app/domain/document-view.ts";
import { LEGAL_NOTICE } from "../../app/domain/legal.ts";
import { renderDocumentPdf } from "../../app/pdf/invoice-pdf.server.tsx";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-pdf-"));

function pdfText(pdf: Buffer, layout = false): string {
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync("pdftotext", [...(layout ? ["-layout"] : []), "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
}

/** Renders page 1 to a PPM and decodes the first QR code found on it. */
function pageQr(pdf: Buffer): string | null {
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  const ppm = execFileSync("pdftoppm", ["-r", "100", "-f", "1", "-l", "1", file], { maxBuffer: 64 * 1024 * 1024 });
  // P6\n<w> <h>\n255\n<rgb bytes>
  let pos = 0;
  const fields: string[] = [];
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(ppm[pos]))) pos++;
    let tok = "";
    while (!/\s/.test(String.fromCharCode(ppm[pos]))) tok += String.fromCharCode(ppm[pos++]);
    fields.push(tok);
  }
  pos++;
  const [magic, w, h] = [fields[0], Number(fields[1]), Number(fields[2])];
  expect(magic).toBe("P6");
  const rgba = new Uint8ClampedArray(w * h * 4);
  for (let i = 0, j = pos; i < w * h; i++, j += 3) {
    rgba[i * 4] = ppm[j];
    rgba[i * 4 + 1] = ppm[j + 1];
    rgba[i * 4 + 2] = ppm[j + 2];
    rgba[i * 4 + 3] = 255;
  }
  return jsQR(rgba, w, h)?.data ?? null;
}

const flat = (s: string) => s.replace(/\s+/g, " ");
const withFormat = (v: DocumentView, f: "1" | "2"): DocumentView => ({ ...v, company: { ...v.company, invoiceFormat: f } });

describe("document PDF", () => {
  for (const [name, view] of Object.entries(allFixtures)) {
    for (const format of ["1", "2"] as const) {
      it(`${name}, format ${format}: renders with the clave, totals, status and notice`, async () => {
        const pdf = await renderDocumentPdf(withFormat(view, format));
        expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
        const text = flat(pdfText(pdf));
        expect(text).toContain(view.kindLabel);
        expect(text).toContain(view.consecutive);
        if (view.clave) expect(text).toContain(view.clave);
        expect(text).toContain(`Total ${view.currency.code}`);
        if (format === "2") expect(text).toContain("CABYS");
        else expect(text).not.toContain("CABYS");
        if (format === "2") for (const l of view.lines) expect(text).toContain(l.cabys);
        if (view.kind === "qt") {
          expect(text).not.toContain("Estado Hacienda");
          expect(text).not.toContain(flat(LEGAL_NOTICE));
        } else {
          expect(text).toContain("Estado Hacienda");
          expect(text).toContain(flat(LEGAL_NOTICE));
        }
      });
    }
  }

  it("keeps Spanish characters and formats stored totals (FE in colones)", async () => {
    const text = flat(pdfText(await renderDocumentPdf(feColones)));
    for (const word of ["Soluciones Ñandú Sociedad Anónima", "María José Muñoz Peña", "Teclado inalámbrico español con tecla ñ", "Café molido de Tarrazú", "Descripción", "Teléfono", "Dirección", "Condición de venta", "Términos y condiciones", "Cédula jurídica", "emisión", "resolución"]) {
      expect(text).toContain(word);
    }
    for (const ch of ["ñ", "á", "é", "í", "ó", "ú", "Ñ", "₡"]) expect(text).toContain(ch);
    expect(text).toContain("₡1.234,50");
    expect(text).toContain("₡70.969,00");
    expect(text).toContain("₡5.000,00");
    expect(text).toContain("₡8.279,69");
    expect(text).toContain("₡74.248,69");
    expect(text).toContain("Aceptado");
    expect(text).toContain("Pago a 30 días");
    expect(text).toContain("MH-DGT-RES-0027-2024");
  });

  it("prints the total in colones and the exchange rate when the currency is not colones", async () => {
    const text = flat(pdfText(await renderDocumentPdf(feDollars)));
    expect(text).toContain("$960,50");
    expect(text).toContain("Total en colones");
    expect(text).toContain("₡485.167,76");
    expect(text).toContain("₡505,12");
    const crc = flat(pdfText(await renderDocumentPdf(feColones)));
    expect(crc).not.toContain("Total en colones");
  });

  it("prints the payment methods: the name alone, or each with its amount when there are several", async () => {
    expect(flat(pdfText(await renderDocumentPdf(feColones)))).toContain("Medio de pago: Transferencia – depósito bancario");
    expect(flat(pdfText(await renderDocumentPdf(feDollars)))).toContain("Medios de pago: Tarjeta $500,00; Efectivo $460,50");
    expect(flat(pdfText(await renderDocumentPdf(quotation)))).not.toContain("Medio de pago");
  });

  it("prints the generic client, the reference of a note and no clave for a quotation", async () => {
    expect(flat(pdfText(await renderDocumentPdf(teGeneric)))).toContain("Cliente: Cliente genérico");
    const nc = flat(pdfText(await renderDocumentPdf(ncOfFe)));
    expect(nc).toContain("Referencia:");
    expect(nc).toContain(feColones.clave);
    expect(nc).toContain("Procesando");
    const qt = flat(pdfText(await renderDocumentPdf(quotation)));
    expect(qt).not.toContain("Clave:");
    expect(qt).toContain("Válida hasta");
  });

  it("a purchase invoice names its provider 'Proveedor'; other documents their 'Cliente'", async () => {
    const fec: DocumentView = { ...feColones, kind: "fec", kindLabel: DOCUMENT_KIND_LABELS.fec };
    const text = flat(pdfText(await renderDocumentPdf(fec)));
    expect(text).toContain(`Proveedor: ${feColones.client.name}`);
    expect(text).not.toContain("Cliente:");
    expect(flat(pdfText(await renderDocumentPdf(feColones)))).toContain(`Cliente: ${feColones.client.name}`);
  });

  it("the QR code on the page decodes to the public URL", async () => {
    for (const view of [feColones, quotation]) {
      expect(pageQr(await renderDocumentPdf(view))).toBe(view.publicUrl);
    }
  });

  it("embeds the company logo (PNG) and the QR; leaves out a logo type PDFs cannot carry", async () => {
    const images = (pdf: Buffer) => {
      const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
      fs.writeFileSync(file, pdf);
      return execFileSync("pdfimages", ["-list", file], { encoding: "utf8" }).trim().split("\n").slice(2).filter((l) => /^\s*\d+\s+\d+\s+image\s/.test(l)).length;
    };
    expect(images(await renderDocumentPdf(feColones))).toBe(2);
    expect(images(await renderDocumentPdf(quotation))).toBe(1);
    const svgLogo = { ...feColones, company: { ...feColones.company, logo: { bytes: new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"), mime: "image/svg+xml" } } };
    expect(images(await renderDocumentPdf(svgLogo))).toBe(1);
  });

  it("a 50-line invoice paginates and keeps every line", async () => {
    const view = manyLines(50);
    const text = flat(pdfText(await renderDocumentPdf(view)));
    expect(text).toContain("línea 1 ");
    expect(text).toContain("línea 50");
    expect(text).toMatch(/página 2 de \d/);
  });
});
