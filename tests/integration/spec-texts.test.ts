// The document screens' texts that the spec words (part 2 §2, §8), checked word for word against
// the spec: the constants the screens render must not drift from it.
import { describe, expect, it } from "vitest";
import { SECTIONS } from "../../app/routes/documents/documents-list.tsx";
import { QUOTATION_MESSAGES } from "../../app/domain/quotations.ts";
import { RECURRING_MESSAGES } from "../../app/domain/recurring.ts";
import { FORM_MESSAGES, FORM_SAVED } from "../../app/domain/document-form.ts";
import { EXPENSE_MESSAGES } from "../../app/domain/expenses.ts";
import { REPORT_MESSAGES } from "../../app/domain/reports.ts";
import { invoicesReport, ticketsReport } from "../../app/server/reports/sales.server.ts";
import { notesReport } from "../../app/server/reports/notes.server.ts";
import { expensesReport } from "../../app/server/reports/expenses.server.ts";
import { itemsReport } from "../../app/server/reports/items.server.ts";

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

describe("spec texts of expenses and reports (part 2 §2 Expenses and Reports, §8, §9)", () => {
  it("expenses", () => {
    expect(EXPENSE_MESSAGES).toMatchObject({ recorded: "Gasto registrado correctamente", deleted: "Gasto eliminado", empty: "No se han registrado gastos.", noReference: "S/R", cancelled: "Acción cancelada" });
  });

  it("reports: empty texts, loading texts, file names (.xlsx), columns and summaries", () => {
    expect([ticketsReport, invoicesReport, notesReport, expensesReport, itemsReport].map((r) => r.main!.empty)).toEqual(["No hay tiquetes", "No hay facturas", "No hay notas", "No hay Gastos", "No hay items"]);
    expect([REPORT_MESSAGES.preparing, REPORT_MESSAGES.preparingExcel]).toEqual(["Preparando tu reporte...", "Preparando excel..."]);
    expect([ticketsReport, invoicesReport, expensesReport, itemsReport].map((r) => r.fileName)).toEqual(["reporte_tiquetes.xlsx", "reporte_facturas.xlsx", "reporte-informe-gastos.xlsx", "reporte-productos.xlsx"]);
    expect(notesReport.main!.columns.map((c) => c.header)).toEqual(["Consecutivo", "Tipo", "Pertenece a", "Cliente", "Cédula Cliente", "Fecha", "Subtotal", "Descuento", "IVA", "Iva Devuelto", "Total"]);
    expect(notesReport.filter).toMatchObject({ all: "Todo", options: [{ label: "NCS" }, { label: "NDS" }] });
    expect(expensesReport.main!.columns.slice(1, 13).map((c) => c.header)).toEqual(["Enero", "Febrero", "Marzo", "Abril", "Mayo", "Junio", "Julio", "Agosto", "Septiembre", "Octubre", "Noviembre", "Diciembre"]);
  });
});
