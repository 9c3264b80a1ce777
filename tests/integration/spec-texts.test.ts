// The document screens' texts that the spec words (part 2 §2, §8), checked word for word against
// the spec: the constants the screens render must not drift from it.
import { describe, expect, it } from "vitest";
import { SECTIONS } from "../../app/routes/documents/documents-list.tsx";
import { QUOTATION_MESSAGES } from "../../app/domain/quotations.ts";
import { RECURRING_MESSAGES } from "../../app/domain/recurring.ts";
import { FORM_MESSAGES, FORM_SAVED } from "../../app/domain/document-form.ts";

describe("spec texts of the document screens", () => {
  it("quotations and recurring invoices", () => {
    expect(QUOTATION_MESSAGES).toMatchObject({ empty: "No hay Cotizaciones", confirmConvert: "¿ Deseas convertir a factura ?", confirmDelete: "¿ Deseas eliminar la cotización ?" });
    expect(RECURRING_MESSAGES.empty).toBe("No hay facturas recurrentes.");
    expect(FORM_MESSAGES.invalidKind).toBe("El tipo de documento a crear es invalido");
    expect(FORM_SAVED).toEqual({ fe: "Factura guardada con exito", fec: "Factura guardada con exito", te: "Tiquete guardado con exito", nc: "Nota guardada con exito", nd: "Nota guardada con exito", qt: "Cotización guardada con exito" });
  });

  it("the lists' filters", () => {
    const labels = (s: keyof typeof SECTIONS) => SECTIONS[s].filters.map((f) => f.label);
    expect(labels("invoices")).toEqual(["Aceptado", "Rechazado", "Pagado", "No Pagado"]);
    expect(labels("notes")).toEqual(["Notas Credito", "Notas Debito", "Aceptado", "Rechazado"]);
    expect(labels("simples")).toEqual(["Aceptado", "Rechazado", "Pagado", "No Pagado"]);
    expect(SECTIONS.tickets.empty).toBe("No hay Tiquetes Electronicos");
  });
});
