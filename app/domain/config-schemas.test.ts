import { describe, expect, it } from "vitest";
import { checkKeyFile, generalConfigSchema, keyExpiryText, renderTemplate, templateSchema, termSchema, withParam, MAX_P12_BYTES } from "./config-schemas.ts";
import { parseForm } from "./forms.ts";

describe("config schemas", () => {
  it("general configuration: every failure is 'faltan datos'", () => {
    const r = parseForm(generalConfigSchema, {});
    expect(r.ok).toBe(false);
    if (!r.ok) expect(new Set(Object.values(r.errors))).toEqual(new Set(["faltan datos"]));
    expect(parseForm(generalConfigSchema, { custom_quotation_name: "X", currency: "2", mode_pos: "0", currency_emit_doc: "0" })).toMatchObject({ ok: true, data: { currency: 2, mode_pos: false, currency_emit_doc: 0 } });
  });
  it("templates say 'flatan datos', terms 'faltan datos'", () => {
    const t = parseForm(templateSchema, { subject: "", body: "" });
    expect(!t.ok && t.errors.subject).toBe("flatan datos");
    const u = parseForm(termSchema, { name: "", body: "x" });
    expect(!u.ok && u.errors.name).toBe("faltan datos");
  });
  it("key file: only .p12, at most 100 kB", () => {
    expect(checkKeyFile({ name: "a.P12", size: 10 })).toBeNull();
    expect(checkKeyFile({ name: "a.pfx", size: 10 })).toBe("Solo se permite un archivo .p12");
    expect(checkKeyFile({ name: "a.p12", size: MAX_P12_BYTES + 1 })).toBe("La llave criptográfica no puede pesar más de 100 kB");
  });
  it("key expiry text: 30 days, 1 day, expired", () => {
    const at = new Date("2027-03-10T18:00:00Z");
    expect(keyExpiryText(at, new Date("2027-02-01T00:00:00Z"))).toBeNull();
    expect(keyExpiryText(at, new Date("2027-02-08T18:00:00Z"))!.text).toBe("La llave criptográfica vence el 10/03/2027 (faltan 30 días).");
    expect(keyExpiryText(at, new Date("2027-03-10T00:00:00Z"))!.text).toBe("La llave criptográfica vence el 10/03/2027 (falta 1 día).");
    expect(keyExpiryText(at, new Date("2027-03-10T18:00:01Z"))!.kind).toBe("expired");
    expect(keyExpiryText(null, new Date())).toBeNull();
  });
  it("renderTemplate and withParam", () => {
    expect(renderTemplate("Hola {cliente} {x}", { cliente: "Ana" })).toBe("Hola Ana {x}");
    expect(withParam("/a/1?tab=plantillas", "template", "5")).toBe("/a/1?tab=plantillas&template=5");
  });
});
