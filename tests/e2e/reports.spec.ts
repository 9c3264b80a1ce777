// Expenses and reports in a real browser, with JavaScript on and off (issue 13): an expense with a
// receipt and a new category made from its dialog; each report opened, its range changed, exported
// to Excel (the download opened with exceljs) and its print preview without the navigation. The
// company "Reportes <project> S.A." holds the known data of tests/fixtures/reports.ts.
import ExcelJS from "exceljs";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { account } from "./fixtures.ts";
import { expect, expectToast, projectOf, signIn, test } from "./helpers.ts";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 64 }, (_, i) => i)]);

test("an expense with a receipt and a new category from its dialog; bad input keeps what was typed", async ({ page }, info) => {
  const p = projectOf(info);
  await signIn(page, account("reports", p));
  await page.goto("/expenses");
  await page.getByRole("link", { name: "Nuevo gasto" }).click();
  await expect(page).toHaveURL(/\/expenses\/new$/);
  const dialog = page.locator("[data-route-dialog=expense]");
  await expect(dialog.getByRole("heading", { name: "Nuevo gasto" })).toBeVisible();

  // Bad input: the message beside the amount, everything else kept.
  await dialog.getByLabel("Fecha").fill("2025-06-15");
  await dialog.getByLabel("Descripción").fill(`Taxi al aeropuerto ${p}`);
  await dialog.getByLabel("Monto").fill("8000,555");
  await dialog.getByLabel("Referencia").fill(`T-${p}`);
  await dialog.getByLabel("Adjunto (foto o PDF del comprobante)").setInputFiles({ name: "recibo-taxi.png", mimeType: "image/png", buffer: PNG });
  await dialog.getByRole("button", { name: "Guardar", exact: true }).click();
  await expect(page.getByText("El monto debe ser un número con máximo 2 decimales")).toBeVisible();
  await expect(page.getByText("La categoría es obligatoria")).toBeVisible();
  await expect(dialog.getByLabel("Descripción")).toHaveValue(`Taxi al aeropuerto ${p}`);
  await expect(dialog.getByLabel("Referencia")).toHaveValue(`T-${p}`);
  // With JavaScript the form is checked before it leaves (decision 166): the chosen file stays in its
  // input; without, the server keeps it as an upload.
  if (info.project.use.javaScriptEnabled) expect(await dialog.getByLabel("Adjunto (foto o PDF del comprobante)").inputValue()).toContain("recibo-taxi.png");
  else await expect(dialog.locator("[data-kept-attachment]")).toContainText("recibo-taxi.png");

  // 'Nueva' category: its own dialog; back with everything typed and the new category chosen.
  await dialog.getByLabel("Monto").fill("8000,55");
  await dialog.getByRole("button", { name: "Nueva" }).click();
  await expect(page).toHaveURL(/\/expenses\/new\/category$/);
  const category = page.locator("[data-route-dialog=category]");
  await category.getByLabel("Nombre").fill(`Viáticos ${p}`);
  await category.getByRole("button", { name: "Guardar categoría" }).click();
  await expectToast(page, "Categoría agregada correctamente.");
  await expect(page).toHaveURL(/\/expenses\/new\?restore=1&category=\d+$/);
  await expect(dialog.getByLabel("Descripción")).toHaveValue(`Taxi al aeropuerto ${p}`);
  await expect(dialog.getByLabel("Monto")).toHaveValue("8000,55");
  await expect(dialog.getByLabel("Categoría")).toHaveValue(/^\d+$/);
  await expect(dialog.getByLabel("Categoría").locator("option:checked")).toHaveText(`Viáticos ${p}`);
  await expect(dialog.locator("[data-kept-attachment]")).toContainText("recibo-taxi.png");
  await dialog.getByLabel("Método de pago").selectOption({ label: "SINPE Móvil" });
  await dialog.getByRole("button", { name: "Guardar", exact: true }).click();
  await expectToast(page, "Gasto registrado correctamente");
  await expect(page).toHaveURL(/\/expenses$/);

  const row = page.locator("[data-expenses] tbody tr", { hasText: `Taxi al aeropuerto ${p}` });
  await expect(row).toContainText("₡8.000,55");
  await expect(row).toContainText("15/06/2025");
  await expect(row).toContainText(`T-${p}`);
  await expect(row).toContainText(`Viáticos ${p}`);
  const href = await row.getByRole("link", { name: "Ver adjunto" }).getAttribute("href");
  const receipt = await page.request.get(href!);
  expect(receipt.status()).toBe(200);
  expect(receipt.headers()["content-type"]).toBe("image/png");
  expect(Buffer.from(await receipt.body()).equals(PNG)).toBe(true);

  // Delete, confirmed.
  await row.getByText("Eliminar", { exact: true }).click();
  await row.getByRole("button", { name: "Sí, eliminar" }).click();
  await expectToast(page, "Gasto eliminado");
  await expect(page.locator("[data-expenses] tbody tr", { hasText: `Taxi al aeropuerto ${p}` })).toHaveCount(0);
  expect((await page.request.get(href!)).status()).toBe(404);
});

interface ReportCase {
  path: string;
  heading: string;
  period: (page: Page) => Promise<void>;
  summary: [string, string];
  file: string;
  firstHeader: string;
}

const october = async (page: Page) => {
  await page.getByLabel("Desde").fill("01-10-2026");
  await page.getByLabel("Hasta").fill("31-10-2026");
};

const CASES: ReportCase[] = [
  { path: "/report-invoices", heading: "Reporte de facturas", period: october, summary: ["Total Neto", "₡1.247.580,25"], file: "reporte_facturas.xlsx", firstHeader: "Consecutivo" },
  { path: "/report-tickets", heading: "Reporte de tiquetes", period: october, summary: ["Total Neto", "₡5.650,00"], file: "reporte_tiquetes.xlsx", firstHeader: "Consecutivo" },
  { path: "/report-notes", heading: "Reporte de notas", period: october, summary: ["Total Neto", "₡118.763,00"], file: "reporte_notas.xlsx", firstHeader: "Consecutivo" },
  { path: "/report-items", heading: "Reporte de artículos", period: october, summary: ["Total", "₡1.351.393,25"], file: "reporte-productos.xlsx", firstHeader: "Código" },
  // Alquiler and Servicios (₡625.250,00) and Mercadería: an expense and the accepted received documents (₡485.433.125,00).
  { path: "/report-expenses", heading: "Reporte de gastos", period: async (page) => page.getByLabel("Año", { exact: true }).fill("2026"), summary: ["Total del año", "₡486.058.375,00"], file: "reporte-informe-gastos.xlsx", firstHeader: "Categoría" },
  // The received documents of tests/fixtures/received-reports.ts.
  { path: "/report-document-receptions", heading: "Reporte de documentos recibidos", period: october, summary: ["Total Neto", "₡515.376.250,00"], file: "reporte_recepciones.xlsx", firstHeader: "Consecutivo" },
  { path: "/report-purchases", heading: "Reporte de compras", period: october, summary: ["Total Neto", "₡514.099.250,00"], file: "reporte_compras.xlsx", firstHeader: "Cliente" },
  { path: "/report-iva", heading: "Resumen de IVA (D-150)", period: async (page) => page.getByLabel("Mes", { exact: true }).fill("2026-10"), summary: ["IVA (débito fiscal)", "₡119.805,25"], file: "resumen-iva-d150.xlsx", firstHeader: "Código" },
];

for (const c of CASES) {
  test(`${c.path}: open it, change the period, export to Excel, print preview without navigation`, async ({ page }, info) => {
    const p = projectOf(info);
    await signIn(page, account("reports", p));
    // The reports menu's link (other menus have links of the same name: 'Notas', 'Compras', 'Documentos recibidos').
    const nav = page.getByRole("navigation", { name: "Principal" });
    const name = c.path === "/report-iva" ? "Resumen de IVA (D-150)" : { "/report-invoices": "Facturas", "/report-tickets": "Tiquetes", "/report-notes": "Notas", "/report-items": "Artículos", "/report-expenses": "Gastos", "/report-document-receptions": "Documentos recibidos", "/report-purchases": "Compras" }[c.path]!;
    await nav.getByRole("link", { name, exact: true }).and(nav.locator(`a[href="${c.path}"]`)).click();
    await expect(page).toHaveURL(new RegExp(`${c.path}$`));
    await expect(page.getByRole("heading", { level: 1, name: c.heading })).toBeVisible();
    await expect(page.locator("[data-summary]")).toBeVisible();

    await c.period(page);
    await page.getByRole("button", { name: "Aplicar" }).click();
    await expect(page).toHaveURL(new RegExp(`${c.path}\\?`));
    const item = page.locator(`[data-summary-item="${c.summary[0]}"]`).first();
    await expect(item).toContainText(c.summary[1]);
    if (c.path === "/report-purchases") {
      // Sorted by total, largest first (two clicks on the header): the dollar invoice leads, the credit note is last.
      await page.locator("[data-report-table] thead").getByRole("link", { name: "Total", exact: true }).click();
      await expect(page).toHaveURL(/orden=total&dir=asc/);
      await page.locator("[data-report-table] thead").getByRole("link", { name: /^Total ▲$/ }).click();
      await expect(page).toHaveURL(/orden=total&dir=desc/);
      await expect(page.locator("[data-report-table] tbody tr").first()).toContainText("₡513.839.250,00");
      await expect(page.locator("[data-report-table] tbody tr").last()).toContainText("-₡1.017.000,00");
      await expect(item).toContainText(c.summary[1]);
    }

    // Excel: the download is a real .xlsx with the summary at the top and the table's header.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByText("Exportar a Excel").click()]);
    expect(download.suggestedFilename()).toBe(c.file);
    const bytes = fs.readFileSync((await download.path())!);
    expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as never);
    const ws = wb.worksheets[0];
    const labels = new Map<unknown, number>();
    ws.eachRow((r, n) => labels.set(r.getCell(1).value, labels.get(r.getCell(1).value) ?? n));
    expect(labels.has(c.firstHeader)).toBe(true);
    expect(Number(ws.getRow(labels.get(c.summary[0])!).getCell(2).value).toFixed(2)).toBe(c.summary[1].replace("₡", "").replace(/\./g, "").replace(",", "."));

    // Print: the printable page, as printed: no navigation, no controls, the summary and the table.
    await page.getByRole("link", { name: "Imprimir" }).click();
    await expect(page).toHaveURL(/imprimir=1/);
    await page.emulateMedia({ media: "print" });
    await expect(page.locator("[data-app-nav]")).toBeHidden();
    await expect(page.locator("[data-app-header]")).toBeHidden();
    await expect(page.locator("[data-no-print]").first()).toBeHidden();
    await expect(page.locator("[data-summary]")).toBeVisible();
    await expect(page.locator("[data-report-table]").first()).toBeVisible();
    expect(await page.locator("[data-report-table] thead").first().evaluate((el) => getComputedStyle(el).display)).toBe("table-header-group");
    await page.emulateMedia({ media: "screen" });
    await expect(page.locator("[data-app-header]")).toBeVisible();
  });
}

test("plan 2 (reception only): the expenses report and its Excel, no other report", async ({ page }, info) => {
  await signIn(page, account("plan2", projectOf(info)));
  const nav = page.getByRole("navigation", { name: "Principal" });
  await expect(nav.getByRole("link", { name: "Gastos", exact: true })).toHaveCount(1);
  await expect(nav.getByRole("link", { name: "Resumen de IVA (D-150)" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Notas", exact: true })).toHaveCount(0);
  for (const path of ["/report-invoices", "/report-iva", "/report-items/excel", "/expenses/new", "/report-purchases", "/report-document-receptions/excel"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/dashboard$/);
  }
  await nav.getByRole("link", { name: "Gastos", exact: true }).click();
  await expect(page).toHaveURL(/\/report-expenses$/);
  await expect(page.locator("[data-report-table] [data-empty]")).toHaveText("No hay Gastos");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByText("Exportar a Excel").click()]);
  expect(download.suggestedFilename()).toBe("reporte-informe-gastos.xlsx");
  expect(fs.readFileSync((await download.path())!).subarray(0, 2).toString("latin1")).toBe("PK");
});
