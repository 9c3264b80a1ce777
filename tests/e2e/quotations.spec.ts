import { DEMO_PASSWORD } from "./fixtures.ts";
import { expect, expectToast, newClient, projectOf, signIn, test } from "./helpers.ts";

// One short journey (with and without JavaScript): a quotation is created, edited, converted to an
// invoice after the confirmation, and the invoice's detail opens.
test("quotation: create → edit → convert to invoice → invoice detail", async ({ page }, info) => {
  const p = projectOf(info);
  const name = `Cliente Cotización ${p}`;
  const identification = p === "js" ? "109870691" : "109870692";
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);

  await newClient(page, { name, identification, email: "cotizaciones@example.cr" });

  await page.goto("/quotations");
  // The button and the title carry the company's quotation name (the configuration journey may have changed it).
  const newButton = page.locator("[data-new-document]");
  const custom = ((await newButton.textContent()) ?? "").replace(/^Nueva /, "").trim();
  expect(custom.length).toBeGreaterThan(0);
  await newButton.click();
  await expect(page.getByRole("heading", { name: new RegExp(`^Información ${custom} \\d+$`) })).toBeVisible();
  await page.getByLabel("Cliente", { exact: true }).selectOption({ label: `${name} (${identification})` });
  await page.getByLabel("CABYS (línea 1)").fill("4523000000100");
  await page.getByLabel("Descripción (línea 1)").fill("Computadora portátil 14 pulgadas");
  await page.getByLabel("Cantidad (línea 1)").fill("2");
  await page.getByLabel("Precio (línea 1)").fill("450000");
  await page.getByLabel("Impuesto (línea 1)").selectOption({ label: "IVA 13%" });
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  await expectToast(page, "Cotización guardada con exito");
  await expect(page).toHaveURL(/\/detail\/quotation\/\d+$/);

  await page.locator("[data-detail-actions]").getByRole("link", { name: "Editar" }).click();
  await expect(page).toHaveURL(/\/edit-quotation\/quotation\/\d+$/);
  await expect(page.getByLabel("Descripción (línea 1)")).toHaveValue("Computadora portátil 14 pulgadas");
  await page.getByLabel("Cantidad (línea 1)").fill("3");
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  await expectToast(page, "Actualizada correctamente");
  await expect(page).toHaveURL(/\/quotations$/);

  const row = page.locator("tr", { hasText: name }).first();
  await expect(row).toContainText("₡1.525.500,00");
  await row.getByRole("button", { name: "Convertir a factura" }).click();
  const confirm = row.getByRole("dialog", { name: "Convertir a factura" });
  await expect(confirm).toContainText("¿ Deseas convertir a factura ?");
  await confirm.getByRole("button", { name: "Sí, convertir" }).click();
  await expectToast(page, "Cotización convertida correctamente");
  await expect(page).toHaveURL(/\/detail\/invoice\/\d+$/);
  await expect(page.getByRole("heading", { name: /^Factura / }).first()).toBeVisible();
});
