import { DEMO_PASSWORD } from "./fixtures.ts";
import { expect, expectAccepted, expectToast, newClient, projectOf, signIn, test } from "./helpers.ts";

test("from the invoices list, an accepted invoice is paid partly ('Pago Parcial') and then fully ('Pagado')", async ({ page }, info) => {
  test.setTimeout(180_000);
  const p = projectOf(info);
  const name = `Cliente Pagos ${p}`;
  const identification = p === "js" ? "109870693" : "109870694";
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await newClient(page, { name, identification, email: "pagos@example.cr" });

  // An invoice of ₡1.017.000,00 (2 × 450 000 + 13 % VAT), accepted by the local Hacienda simulator.
  await page.goto("/new-invoice");
  await page.getByLabel("Cliente", { exact: true }).selectOption({ label: `${name} (${identification})` });
  await page.getByLabel("CABYS (línea 1)").fill("4523000000100");
  await page.getByLabel("Descripción (línea 1)").fill("Computadora portátil 14 pulgadas");
  await page.getByLabel("Cantidad (línea 1)").fill("2");
  await page.getByLabel("Precio (línea 1)").fill("450.000");
  await page.getByLabel("Impuesto (línea 1)").selectOption({ label: "IVA 13%" });
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Factura guardada con exito");
  await expect(page).toHaveURL(/\/detail\/invoice\/\d+$/);
  const id = /\/detail\/invoice\/(\d+)$/.exec(page.url())![1];
  await expect(async () => {
    await page.reload();
    await expect(page.locator("[data-status-ribbon]")).toHaveText("aceptado", { timeout: 1000 });
  }).toPass({ timeout: 60_000 });

  // The invoices list: unpaid, with 'Pagar'.
  await page.goto("/invoices");
  const row = page.locator(`tr[data-document-id="${id}"]`);
  await expect(row).toContainText("No pagado");
  await row.getByRole("link", { name: "Pagar" }).click();
  await expect(page).toHaveURL(new RegExp(`/payments\\?document_id=${id}&volver=%2Finvoices$`));
  await expect(page.locator("[data-payment-total]")).toHaveText("₡1.017.000,00");
  await expect(page.locator("[data-payment-due]")).toHaveText("₡1.017.000,00");
  await expect(page.getByLabel("Monto")).toHaveValue("1.017.000,00");
  await expect(page.getByLabel("Descripción")).toHaveValue(/^Pago factura Nº \d{20}$/);
  await expect(page.getByLabel("Banco")).toHaveValue("");

  // More than the due: the error next to the amount, and what was typed stays.
  await page.getByLabel("Monto").fill("2000000");
  await page.getByLabel("Forma de pago").selectOption({ label: "SINPE Móvil" });
  await page.getByLabel("Referencia").fill(`SINPE-${p}-1`);
  await page.getByRole("button", { name: "Registrar pago" }).click();
  await expect(page.getByText("El monto no puede ser mayor al saldo pendiente (₡1.017.000,00)")).toBeVisible();
  await expect(page.getByLabel("Monto")).toHaveValue("2000000");
  await expect(page.getByLabel("Referencia")).toHaveValue(`SINPE-${p}-1`);
  await expect(page.getByLabel("Forma de pago")).toHaveValue("06");

  // A partial payment: back to the list, 'Pago Parcial', still 'Pagar'.
  await page.getByLabel("Monto").fill("17000,50");
  await page.getByRole("button", { name: "Registrar pago" }).click();
  await expectToast(page, "Pago registrado correctamente");
  await expect(page).toHaveURL(/\/invoices$/);
  await expect(row).toContainText("Pago Parcial");
  await expect(row).toContainText("₡17.000,50");

  // The rest (the form offers exactly the due): 'Pagado', no more 'Pagar'.
  await row.getByRole("link", { name: "Pagar" }).click();
  await expect(page.locator("[data-payment-due]")).toHaveText("₡999.999,50");
  await expect(page.getByLabel("Monto")).toHaveValue("999.999,50");
  await page.getByRole("button", { name: "Registrar pago" }).click();
  await expectToast(page, "Pago registrado correctamente");
  await expect(page).toHaveURL(/\/invoices$/);
  await expect(row).toContainText("Pagado");
  await expect(row).toContainText("₡1.017.000,00");
  await expect(row.getByRole("link", { name: "Pagar" })).toHaveCount(0);

  // Both payments on /payments: the SINPE one with its reference, neither with a bank.
  await page.goto(`/payments?search=${encodeURIComponent(`SINPE-${p}-1`)}`);
  const payment = page.locator("[data-payments] tbody tr");
  await expect(payment).toHaveCount(1);
  await expect(payment).toContainText("SINPE Móvil");
  await expect(payment).toContainText("₡17.000,50");
  await expect(payment).toContainText("S/B");
});

test("a payment on an invoice sold with sale condition 10 issues a Recibo Electrónico de Pago, shown on the payments list and the invoice (issue 11 point 9)", async ({ page }, info) => {
  test.setTimeout(180_000);
  const p = projectOf(info);
  const name = `Cliente REP ${p}`;
  const identification = p === "js" ? "109870695" : "109870696";
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await newClient(page, { name, identification, email: "rep@example.cr" });

  // ₡113.000,00 on credit under art. 27 LIVA (CondicionVenta 10), accepted by the local Hacienda.
  await page.goto("/new-invoice");
  await page.getByLabel("Cliente", { exact: true }).selectOption({ label: `${name} (${identification})` });
  await page.getByLabel("Condición de venta", { exact: true }).selectOption({ label: "Venta a crédito en IVA hasta 90 días (Artículo 27, LIVA)" });
  await page.getByLabel("CABYS (línea 1)").fill("8313100000000");
  await page.getByLabel("Descripción (línea 1)").fill("Servicios de consultoría");
  await page.getByLabel("Unidad (línea 1)").selectOption("Sp");
  await page.getByLabel("Precio (línea 1)").fill("100000");
  await page.getByLabel("Impuesto (línea 1)").selectOption({ label: "IVA 13%" });
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Factura guardada con exito");
  const id = /\/detail\/invoice\/(\d+)$/.exec(page.url())![1];
  await expectAccepted(page);

  // The payment form says a REP will be issued; the payment issues it.
  await page.goto(`/payments?document_id=${id}&volver=${encodeURIComponent(`/detail/invoice/${id}`)}`);
  await expect(page.locator("[data-rep-notice]")).toContainText("emite el recibo (REP) y lo envía a Hacienda");
  await page.getByLabel("Monto").fill("56500");
  await page.getByLabel("Forma de pago").selectOption({ label: "Transferencia – depósito bancario" });
  await page.getByLabel("Referencia").fill(`REP-${p}`);
  await page.getByRole("button", { name: "Registrar pago" }).click();
  await expectToast(page, /Pago registrado\. Se emitió el recibo electrónico de pago 0010000110\d{10} y se enviará a Hacienda\./);
  await expect(page).toHaveURL(new RegExp(`/detail/invoice/${id}$`));

  // The invoice lists its receipt; the jobs send it and the local Hacienda accepts it, with its files.
  const receipt = page.locator("[data-receipts] li");
  await expect(receipt).toContainText(/Pago del \d{2}\/\d{2}\/\d{4} por ₡56\.500,00: recibo 0010000110\d{10}/);
  await expect(async () => {
    await page.reload();
    await expect(page.locator("[data-receipts] li .chip")).toHaveText("aceptado", { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  const download = page.waitForEvent("download");
  await page.locator("[data-receipts]").getByRole("link", { name: "XML" }).click();
  expect((await download).suggestedFilename()).toMatch(/^506\d{47}\.xml$/);
  await expect(page.locator("[data-receipts]").getByRole("link", { name: "Respuesta de Hacienda" })).toBeVisible();

  // The payments list shows it in its own column.
  await page.goto(`/payments?search=${encodeURIComponent(`REP-${p}`)}`);
  const row = page.locator("[data-payments] tbody tr");
  await expect(row).toHaveCount(1);
  await expect(row.locator("[data-receipt]")).toContainText(/0010000110\d{10}\s*aceptado/);
});
