import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD } from "./fixtures.ts";
import { expectToast, newClient, projectOf, signIn } from "./helpers.ts";

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
