import { describe, expect, it } from "vitest";
import { fillTemplate } from "./email-template.ts";

describe("fillTemplate", () => {
  it("fills known placeholders and leaves unknown ones as typed", () => {
    expect(fillTemplate("Hola {cliente}, {otro}", { cliente: "Peña" })).toBe("Hola Peña, {otro}");
  });
  it("an empty value drops its clause after a comma", () => {
    expect(fillTemplate("Adjuntamos la factura {referencia} por un monto de {monto}, con vencimiento el {vencimiento}.\n\nGracias", { referencia: "001", monto: "₡1,00", vencimiento: "" })).toBe(
      "Adjuntamos la factura 001 por un monto de ₡1,00.\n\nGracias",
    );
    expect(fillTemplate("Cotización {referencia} por {monto}, válida hasta el {vencimiento}.", { referencia: "7", monto: "₡5,00", vencimiento: "" })).toBe("Cotización 7 por ₡5,00.");
  });
  it("an empty value that opens a sentence drops the sentence", () => {
    expect(fillTemplate("Hola. Vence el {vencimiento}. Gracias.", { vencimiento: "" })).toBe("Hola. Gracias.");
    expect(fillTemplate("Vence el {vencimiento}.\nSaludos", { vencimiento: "" })).toBe("\nSaludos");
    expect(fillTemplate("Asunto {clave}", { clave: " " })).toBe("");
  });
  it("never doubles the period after a value ending in one", () => {
    expect(fillTemplate("Su cuenta con {compania}.", { compania: "Colibrí Demo S.A." })).toBe("Su cuenta con Colibrí Demo S.A.");
    expect(fillTemplate("{compania}, gracias.", { compania: "Colibrí Demo S.A." })).toBe("Colibrí Demo S.A., gracias.");
  });
});
