// /query-public/:code64: a signed code, a light page without JavaScript, and the same 404
// 'No hay información' for unknown documents and for invalid or tampered codes.
import { describe, expect, it } from "vitest";
import { feColones, feDollars, ncOfFe, quotation, teGeneric } from "../../app/domain/document-view.fixtures.ts";
import { DOCUMENT_KIND_LABELS, type DocumentView } from "../../app/domain/document-view.ts";
import { LEGAL_NOTICE } from "../../app/domain/legal.ts";
import * as route from "../../app/routes/public/query-public.tsx";
import * as page from "../../app/server/public-page.server.tsx";
import { parsePublicCode, publicCode, publicUrl } from "../../app/server/public-link.server.ts";

const store = new Map<string, DocumentView>([
  ["1:125", feColones],
  ["1:126", feDollars],
  ["1:310", teGeneric],
  ["1:12", ncOfFe],
  ["2:42", quotation],
]);
const load = async (ref: { companyId: number; documentId: number }) => store.get(`${ref.companyId}:${ref.documentId}`) ?? null;

describe("public link code", () => {
  it("round-trips and carries only the two ids", () => {
    const code = publicCode({ companyId: 7, documentId: 12345 });
    expect(parsePublicCode(code)).toEqual({ companyId: 7, documentId: 12345 });
    expect(JSON.parse(Buffer.from(code.split(".")[0], "base64url").toString())).toEqual({ c: 7, d: 12345 });
    expect(publicUrl("https://app.example/", { companyId: 7, documentId: 12345 })).toBe(`https://app.example/query-public/${code}`);
  });

  it("rejects tampering, other secrets' codes, bare ids and junk", () => {
    const code = publicCode({ companyId: 7, documentId: 12345 });
    const [payload, mac] = code.split(".");
    const other = Buffer.from(JSON.stringify({ c: 7, d: 12346 })).toString("base64url");
    expect(parsePublicCode(`${other}.${mac}`)).toBeNull();
    expect(parsePublicCode(`${payload}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`)).toBeNull();
    expect(parsePublicCode(payload)).toBeNull();
    expect(parsePublicCode("12345")).toBeNull();
    expect(parsePublicCode("")).toBeNull();
    expect(parsePublicCode(undefined)).toBeNull();
    expect(parsePublicCode("x".repeat(500))).toBeNull();
    expect(() => publicCode({ companyId: 0, documentId: 1 })).toThrow();
  });
});

describe("public page", () => {
  for (const [key, view] of store) {
    it(`renders ${view.kindLabel} (${key}) with no script, ≤ 30 kB`, async () => {
      const [c, d] = key.split(":").map(Number);
      const res = await page.queryPublic(publicCode({ companyId: c, documentId: d }), load);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      const html = await res.text();
      expect(Buffer.byteLength(html)).toBeLessThanOrEqual(30 * 1024);
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<link[^>]+stylesheet/i);
      expect(html).toContain("<svg");
      expect(html).toContain(view.consecutive);
      expect(html).toContain(view.kindLabel);
      for (const l of view.lines) expect(html).toContain(l.description);
      if (view.kind === "qt") expect(html).not.toContain(LEGAL_NOTICE);
      else expect(html).toContain(LEGAL_NOTICE);
    });
  }

  it("prints totals, the total in colones, terms and the notice", async () => {
    const html = await (await page.queryPublic(publicCode({ companyId: 1, documentId: 126 }), load)).text();
    expect(html).toContain("$960,50");
    expect(html).toContain("Total en colones");
    expect(html).toContain("₡485.167,76");
    expect(html).toContain("Términos y condiciones");
    const crc = await (await page.queryPublic(publicCode({ companyId: 1, documentId: 125 }), load)).text();
    expect(crc).toContain("₡1.234,50");
    expect(crc).toContain("₡74.248,69");
    expect(crc).toContain("María José Muñoz Peña");
    expect(crc).not.toContain("Total en colones");
  });

  it("a purchase invoice names its provider 'Proveedor'; other documents their 'Cliente'", async () => {
    const fec = await (await page.publicPageResponse({ ...feColones, kind: "fec", kindLabel: DOCUMENT_KIND_LABELS.fec })).text();
    expect(fec).toContain(`<b>Proveedor:</b> ${feColones.client.name}`);
    expect(fec).not.toContain("<b>Cliente:</b>");
    expect(await (await page.publicPageResponse(feColones)).text()).toContain(`<b>Cliente:</b> ${feColones.client.name}`);
    expect(await (await page.publicPageResponse(teGeneric)).text()).toContain("<b>Cliente:</b> Cliente genérico");
  });

  it("a 50-line document stays under 30 kB", async () => {
    const big: DocumentView = { ...feColones, company: { ...feColones.company, invoiceFormat: "2" }, lines: Array.from({ length: 50 }, (_, i) => ({ ...feColones.lines[1], code: `A-${i}` })) };
    const html = await (await page.publicPageResponse(big)).text();
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(30 * 1024);
  });

  it("escapes what users typed", async () => {
    const evil: DocumentView = { ...feColones, note: '<script>alert(1)</script>', client: { ...feColones.client, name: '<img src=x onerror="x">' } };
    const html = await (await page.publicPageResponse(evil)).text();
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain("<img src=x");
  });

  it("unknown documents and invalid or tampered codes are 404 'No hay información'", async () => {
    const good = publicCode({ companyId: 1, documentId: 125 });
    const forged = `${Buffer.from(JSON.stringify({ c: 2, d: 42 })).toString("base64url")}.${good.split(".")[1]}`;
    for (const code of [publicCode({ companyId: 1, documentId: 999 }), publicCode({ companyId: 2, documentId: 125 }), forged, "abc", "", "1", `${good}x`]) {
      const res = await page.queryPublic(code, load);
      expect(res.status, code).toBe(404);
      const html = await res.text();
      expect(html).toContain("No hay información");
      expect(html).not.toMatch(/<script/i);
    }
  });

  it("the route loader answers 404 for a bad code without touching a session", async () => {
    const res = (await route.loader({ params: { code64: "nope" }, request: new Request("http://x/query-public/nope"), context: {} } as never)) as Response;
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("No hay información");
  });
});
