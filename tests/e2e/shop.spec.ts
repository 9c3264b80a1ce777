// Issue 14 as a shop owner meets it, with JavaScript on and off: what is due counts credit notes
// (point 1), numbers typed the Costa Rican way (point 5), the 80 mm receipt (point 6), forms checked
// as you type — the server's same messages without JavaScript (point 7), readable charts and lists at
// 360 px (points 10 and 9), and the invoice lines at 1366 px.
import type { Page } from "@playwright/test";
import { account, DEMO_PASSWORD } from "./fixtures.ts";
import { expect, expectAccepted, expectToast, newClient, projectOf, signIn, test, useCompany } from "./helpers.ts";

const js = () => test.info().project.use.javaScriptEnabled;

/** An invoice to the client with one line typed the Costa Rican way; ends accepted on its detail page, returns its path. */
async function acceptedInvoice(page: Page, client: string, line: { price: string; quantity: string; total: string }) {
  await page.goto("/new-invoice");
  await page.getByLabel("Cliente", { exact: true }).selectOption({ label: client });
  await page.getByLabel("CABYS (línea 1)").fill("4523000000100");
  await page.getByLabel("Descripción (línea 1)").fill("Silla de oficina ergonómica");
  await page.getByLabel("Cantidad (línea 1)").fill(line.quantity);
  await page.getByLabel("Precio (línea 1)").fill(line.price);
  await page.getByLabel("Impuesto (línea 1)").selectOption({ label: "IVA 13%" });
  if (!js()) await page.getByRole("button", { name: "Recalcular" }).click();
  await expect(page.getByTestId("document-total")).toHaveText(line.total);
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  await expectToast(page, "Factura guardada con exito");
  await expect(page).toHaveURL(/\/detail\/invoice\/\d+$/);
  await expectAccepted(page);
  return new URL(page.url()).pathname;
}

/** From an invoice's detail page, a credit note with the given code (and the first line's price changed when partial). */
async function acceptedCreditNote(page: Page, o: { code: string; price?: string; total: string }) {
  await page.locator("[data-detail-actions]").getByRole("link", { name: "Nota de crédito" }).click();
  await expect(page).toHaveURL(/\/new-note\/nc\/invoice\/\d+$/);
  if (o.price) await page.getByLabel("Precio (línea 1)").fill(o.price);
  await page.getByLabel("Código de referencia").selectOption(o.code);
  await page.getByLabel("Razón").fill(o.code === "01" ? "Anulación de la venta" : "Descuento posterior a la venta");
  await page.getByLabel("Nota", { exact: true }).fill("Acordado con el cliente");
  if (!js()) await page.getByRole("button", { name: "Recalcular" }).click();
  await expect(page.getByTestId("document-total")).toHaveText(o.total);
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  await expectToast(page, "Nota guardada con exito");
  await expect(page).toHaveURL(/\/detail\/note\/\d+$/);
  await expectAccepted(page);
}

test("what is due counts credit notes: nothing to pay after a full one, the rest after a partial one; amounts typed the Costa Rican way", async ({ page }, info) => {
  test.setTimeout(300_000);
  const p = projectOf(info);
  const identification = p === "js" ? "109870801" : "109870802";
  const name = `Cliente Saldos ${p}`;
  const client = `${name} (${identification})`;
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await newClient(page, { name, identification, email: "saldos@example.cr" });

  // 2 × 1.500,50 + 13 % = 3.391,13: the price typed with dot thousands and a decimal comma.
  const first = await acceptedInvoice(page, client, { price: "1.500,50", quantity: "2", total: "₡3.391,13" });
  await acceptedCreditNote(page, { code: "01", total: "₡3.391,13" });
  await page.goto(first);
  await expect(page.locator("[data-payment-status]")).toHaveText("Con nota de credito");
  await expect(page.locator("[data-detail-actions] [data-pay]")).toHaveCount(0);

  // 100.000 (one hundred thousand) + 13 %; a credit note taking 40.000 off the price: 45.200,00.
  const second = await acceptedInvoice(page, client, { price: "100.000", quantity: "1", total: "₡113.000,00" });
  await acceptedCreditNote(page, { code: "02", price: "40.000", total: "₡45.200,00" });
  await page.goto(second);
  await page.locator("[data-detail-actions] [data-pay]").click();
  await expect(page.locator("[data-payment-credited]")).toHaveText("₡45.200,00");
  await expect(page.locator("[data-payment-due]")).toHaveText("₡67.800,00");
  await expect(page.getByLabel("Monto")).toHaveValue("67.800,00");
  await page.getByLabel("Monto").fill("113.000");
  await page.getByRole("button", { name: "Registrar pago" }).click();
  await expect(page.getByText("El monto no puede ser mayor al saldo pendiente (₡67.800,00)")).toBeVisible();
  await page.getByLabel("Monto").fill("67800,00");
  await page.getByRole("button", { name: "Registrar pago" }).click();
  await expectToast(page, "Pago registrado correctamente");
  await page.goto(second);
  await expect(page.locator("[data-payment-status]")).toHaveText("Pagado");

  // The client owes nothing: balance and account statement.
  await page.goto(`/clients?search=${encodeURIComponent(name)}`);
  const row = page.locator("[data-clients] tbody tr").filter({ hasText: name });
  await expect(row).toContainText("₡0,00");
  await row.getByRole("link", { name: "Estado de cuenta" }).click();
  await expect(page.locator("[data-pending-total]")).toHaveText("₡0,00");
  await expect(page.locator("[data-statement]")).toContainText("No hay facturas pendientes");
});

test("a ticket printed on an 80 mm roll: the receipt layout with the QR, chosen in the general configuration", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  // The demo user belongs to several companies: the demo company's own configuration.
  await useCompany(page, "Colibrí Demo S.A.");
  await page.goto("/companies");
  const config = await page.locator("tr", { hasText: "Colibrí Demo S.A." }).getByRole("link", { name: "Configuraciones" }).first().getAttribute("href");
  const companyId = /\/(\d+)$/.exec(config!)![1];
  const choose = async (label: string) => {
    await page.goto(`/config-generals/${companyId}`);
    await page.getByLabel("Formato de impresión (tiquetes e Imprimir)").selectOption({ label });
    await page.getByRole("button", { name: "Guardar" }).click();
    await expectToast(page, /Guardado correctamente|Configuración guardada correctamente/);
  };
  await choose("Recibo de 80 mm (impresora térmica)");
  try {
    await page.goto("/new-ticket");
    await page.getByLabel("CABYS (línea 1)").fill("8313100000000");
    await page.getByLabel("Descripción (línea 1)").fill("Café de Tarrazú 500 g");
    await page.getByLabel("Cantidad (línea 1)").fill("2");
    await page.getByLabel("Precio (línea 1)").fill("4.500");
    await page.getByLabel("Impuesto (línea 1)").selectOption({ label: "IVA 13%" });
    await page.getByRole("button", { name: "Guardar e imprimir" }).click();
    await expectToast(page, "Tiquete guardado con exito");
    const href = await page.locator("[data-printed-ticket]").getByRole("link", { name: "Imprimir" }).getAttribute("href");

    // The print page in print media, 80 mm wide (302 CSS px): the receipt fits the roll.
    const context = await browser.newContext({ storageState: await page.context().storageState(), viewport: { width: 302, height: 900 }, javaScriptEnabled: js() });
    try {
      const receipt = await context.newPage();
      await receipt.emulateMedia({ media: "print" });
      await receipt.goto(href!);
      const main = receipt.locator("[data-receipt='80']");
      await expect(main).toBeVisible();
      await expect(main).toContainText("Tiquete electrónico");
      await expect(main).toContainText("Café de Tarrazú 500 g");
      await expect(main).toContainText("₡10.170,00");
      await expect(receipt.getByRole("img", { name: "Código QR del documento" })).toBeVisible();
      const box = (await main.boundingBox())!;
      expect(box.width).toBeLessThanOrEqual(302);
      expect(await receipt.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(302);
      await receipt.screenshot({ path: test.info().outputPath("receipt-80mm-print.png"), fullPage: true });
    } finally {
      await context.close();
    }
  } finally {
    await choose("Página completa (carta o A4)");
  }
});

test("forms are checked as they are filled; without JavaScript the server says the same", async ({ page }) => {
  await page.goto("/login");
  const enter = page.getByRole("button", { name: "Entrar" });
  if (js()) {
    // 'Entrar' waits for both fields (spec part 1 §5); each field is checked when it is left.
    await expect(enter).toBeDisabled();
    await page.getByLabel("Correo").fill("ab");
    await page.getByLabel("Contraseña").focus();
    await expect(page.getByText("El correo debe tener al menos 4 caracteres")).toBeVisible();
    await page.getByLabel("Correo").fill("demo@colibri");
    await expect(page.getByText("El correo debe tener al menos 4 caracteres")).toHaveCount(0);
    await expect(page.getByText("Ingresa un correo válido")).toBeVisible();
    await page.getByLabel("Contraseña").fill("123456");
    await expect(enter).toBeEnabled();
    // A save with an error stays on the page.
    await enter.click();
    await expect(page.getByText("Ingresa un correo válido")).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  } else {
    // Without JavaScript the server answers with the same words (an address the browser accepts).
    await page.getByLabel("Correo").fill("demo@colibri");
    await page.getByLabel("Contraseña").fill("123456");
    await enter.click();
    await expect(page.getByText("Ingresa un correo válido")).toBeVisible();
    await expect(page.getByLabel("Correo")).toHaveValue("demo@colibri");
  }

  // A client: the name required, said when the field is left (with JavaScript) or after saving (without).
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await page.goto("/new-client");
  const form = page.locator("[data-client-form]");
  await form.getByLabel("Nombre", { exact: true }).fill("");
  if (js()) {
    await form.getByLabel("Nombre", { exact: true }).focus();
    await form.getByLabel("Email", { exact: true }).focus();
    await expect(form.getByText("El nombre es obligatorio")).toBeVisible();
    await form.getByLabel("Email", { exact: true }).fill("no-es-correo");
    await form.getByLabel("Teléfono").focus();
    await expect(form.getByText("Ingresa un correo válido")).toBeVisible();
    await form.getByLabel("Email", { exact: true }).fill("bien@example.cr");
    await expect(form.getByText("Ingresa un correo válido")).toHaveCount(0);
  } else {
    await form.getByLabel("Email", { exact: true }).fill("no-es-correo");
    await page.getByRole("button", { name: "Guardar" }).click();
    await expect(form.getByText("El nombre es obligatorio")).toBeVisible();
    await expect(form.getByText("Ingresa un correo válido")).toBeVisible();
    await expect(form.getByLabel("Email", { exact: true })).toHaveValue("no-es-correo");
  }
});

test("the expense form: amounts typed the Costa Rican way, checked as they are left; without JavaScript the server says the same", async ({ page }, info) => {
  const p = projectOf(info);
  // The report journeys' company has expense categories; the expense is dated 2019, outside every report's period, and deleted.
  await signIn(page, account("reports", p));
  await page.goto("/expenses/new");
  const dialog = page.locator("[data-route-dialog=expense]");
  const message = dialog.getByText("El monto debe ser un número con máximo 2 decimales (por ejemplo 1.500,50)");
  await dialog.getByLabel("Fecha").fill("2019-03-10");
  await dialog.getByLabel("Descripción").fill(`Alquiler de bodega ${p}`);
  await dialog.getByLabel("Monto").fill("1.500,505");
  if (js()) {
    await dialog.getByLabel("Referencia").focus();
    await expect(message).toBeVisible();
    await dialog.getByLabel("Monto").fill("1.500,50");
    await expect(message).toHaveCount(0);
  } else {
    await dialog.getByRole("button", { name: "Guardar", exact: true }).click();
    await expect(message).toBeVisible();
    await expect(dialog.getByLabel("Monto")).toHaveValue("1.500,505");
    await expect(dialog.getByLabel("Descripción")).toHaveValue(`Alquiler de bodega ${p}`);
    await dialog.getByLabel("Monto").fill("1.500,50");
  }
  await dialog.getByLabel("Categoría").selectOption({ index: 1 });
  await dialog.getByRole("button", { name: "Guardar", exact: true }).click();
  await expectToast(page, "Gasto registrado correctamente");
  await page.goto("/expenses?search=" + encodeURIComponent(`Alquiler de bodega ${p}`));
  const row = page.locator("[data-expenses] tbody tr", { hasText: `Alquiler de bodega ${p}` });
  await expect(row).toContainText("₡1.500,50");
  await row.getByText("Eliminar", { exact: true }).click();
  await row.getByRole("button", { name: "Sí, eliminar" }).click();
  await expectToast(page, "Gasto eliminado");
});

test("at 360 px the dashboard's charts read and lists stack; at 1366 px an invoice line shows a whole CABYS code", async ({ page }, info) => {
  // The report journeys' company: its invoices are seeded (tests/fixtures/reports.ts), so the list has
  // rows whether or not other journeys ran before this one.
  await signIn(page, account("reports", projectOf(info)));
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/dashboard");
  const bars = page.locator("[data-chart='ingresos-gastos']");
  await expect(bars.locator("[data-legend]")).toContainText("Ingresos");
  await expect(bars.locator("[data-legend]")).toContainText("Gastos");
  await expect(bars.locator("[data-value-axis] text").first()).toHaveText("₡0");
  await expect(bars.locator("svg text").filter({ hasText: /^(Ene|Feb|Mar|Abr|May|Jun|Jul|Ago|Set|Oct|Nov|Dic)$/ })).toHaveCount(6);
  await expect(page.locator("[data-chart='ventas-por-mes'] [data-legend]")).toContainText("Mes anterior");
  // The numbers behind the chart, also without JavaScript (a disclosure).
  await bars.getByText("Ver datos").click();
  await expect(bars.locator("[data-chart-table] tbody tr")).toHaveCount(6);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: test.info().outputPath("dashboard-360.png"), fullPage: true });

  await page.goto("/invoices");
  const cell = page.locator("[data-documents='invoices'] tbody tr").first().locator("td[data-label='Total']");
  await expect(cell).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/new-invoice");
  const cabys = page.getByLabel("CABYS (línea 1)");
  await cabys.fill("4523000000100");
  expect(await cabys.evaluate((el: HTMLInputElement) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect((await page.getByLabel("Descripción (línea 1)").boundingBox())!.width).toBeGreaterThanOrEqual(190);
});
