// The reception's judgement of a supplier's XML (app/server/receptions/judge.server.ts) goes through
// the engine's judgeReceivedDocument (app/hacienda/received.ts; decisions 134, 177): a document that
// breaks Hacienda's schema or its fiscal rules in received mode is refused with the engine's reason,
// in Spanish, though its signature, clave and totals are right; a correct one is received.
import { describe, expect, it } from "vitest";
import { buildXml } from "../../app/hacienda/build.ts";
import { signXml } from "../../app/hacienda/sign.ts";
import { judgeReceivedXml } from "../../app/server/receptions/judge.server.ts";
import { supplierDocument, supplierKey } from "../fixtures/receptions.ts";

const receiver = { name: "Compradora del Este S.A.", id: "3101555444" };
const resigned = (doc: ReturnType<typeof supplierDocument>["doc"], edit: (xml: string) => string = (x) => x) => new TextEncoder().encode(signXml(edit(buildXml(doc)), supplierKey(), { now: doc.issuedAt }));

describe("judgeReceivedXml uses the engine's received-mode judgement", () => {
  it("a correct supplier invoice is received, with its lines' IVA tariffs", async () => {
    const d = supplierDocument({ receiver, issuedAt: new Date("2026-10-05T15:00:00Z") });
    const j = await judgeReceivedXml(new TextEncoder().encode(d.xml));
    expect(j.ok).toBe(true);
    if (j.ok && j.role === "comprobante") expect(j.summary.lines.map((l) => l.ivaTariff)).toEqual(["08", "04"]);
    else throw new Error("not a comprobante");
  });

  it("a schema error (CondicionVenta 77) is refused with the engine's reason", async () => {
    const d = supplierDocument({ receiver, issuedAt: new Date("2026-10-05T15:00:00Z") });
    const j = await judgeReceivedXml(resigned(d.doc, (x) => x.replace("<CondicionVenta>01</CondicionVenta>", "<CondicionVenta>77</CondicionVenta>")));
    expect(j).toEqual({ ok: false, message: expect.stringMatching(/^No cumple el formato de Hacienda \(esquema XSD\): .*CondicionVenta.*pida al emisor uno corregido\.$/s) });
  });

  it("a fiscal-rule error (a cash sale without a payment method) is refused with the engine's reason", async () => {
    const d = supplierDocument({ receiver, issuedAt: new Date("2026-10-05T15:00:00Z") });
    const j = await judgeReceivedXml(resigned({ ...d.doc, payments: [] }));
    expect(j).toEqual({ ok: false, message: expect.stringMatching(/^Montos o datos que Hacienda rechaza: ResumenFactura\/MedioPago: Falta el medio de pago/) });
  });
});
