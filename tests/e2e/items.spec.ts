// Items journeys, with JavaScript on (project js) and off (project nojs): the admin imports a CABYS
// spreadsheet, then creates an item with a CABYS code picked from the search (the tax type follows its
// rate), edits it and deletes it with the confirmation.
import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD } from "./fixtures.ts";
import { expectToast, projectOf, signIn } from "./helpers.ts";
import { writeCabysXlsx } from "../fixtures/cabys-xlsx.ts";

test("CABYS import, then create (CABYS from search), edit and delete an item", async ({ page }, info) => {
  test.setTimeout(120_000);
  const project = projectOf(info);
  const code = project === "js" ? "7770000000011" : "7770000000028";
  const exemptCode = project === "js" ? "7770000000035" : "7770000000042";
  const file = await writeCabysXlsx({
    rows: 30,
    overrides: {
      0: { code, description: `Servicio colibrí ${project} de jardinería`, tax: "4%" },
      1: { code: exemptCode, description: `Bien colibrí ${project} exento`, tax: "0%" },
    },
  });
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/items");
  await page.getByLabel("Archivo CABYS").setInputFiles(file);
  await page.getByRole("button", { name: "Importar catálogo" }).click();
  await expectToast(page, /Catálogo CABYS actualizado: 30 códigos importados/);

  // A file that is not an xlsx is refused with a clear message.
  await page.getByLabel("Archivo CABYS").setInputFiles({ name: "cabys.csv", mimeType: "text/csv", buffer: Buffer.from("a,b\n1,2\n") });
  await page.getByRole("button", { name: "Importar catálogo" }).click();
  await expect(page.locator("[data-import-errors]")).toContainText("El archivo no es un libro de Excel (.xlsx) válido");

  await page.goto("/items");
  await page.getByRole("link", { name: "Nuevo artículo" }).click();
  await expect(page).toHaveURL(/\/new-item$/);
  const itemCode = `E2E-${project}`;
  await page.getByLabel("Código", { exact: true }).fill(itemCode);
  await page.getByLabel("Nombre", { exact: true }).fill(`Jardinería mensual ${project} con poda y abono`);
  await page.getByLabel("Descripción", { exact: true }).fill("Mantenimiento de jardín");
  await page.getByLabel("Buscar CABYS por código o descripción").fill(`colibri ${project} jardineria`);
  await page.getByRole("button", { name: "Buscar CABYS" }).click();
  await page.locator("[data-cabys-results] button").filter({ hasText: code }).click();
  await expect(page.getByLabel("Código CABYS", { exact: true })).toHaveValue(code);
  await expect(page.getByLabel("Tipo de impuesto")).toHaveValue(await page.locator("#tax_type option", { hasText: "IVA 4%" }).getAttribute("value") as string);
  await page.getByLabel("Precio", { exact: true }).fill("25000.5");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/items$/);
  await expectToast(page, "Artículo Guardado correctamente");

  await page.getByRole("searchbox", { name: "Buscar" }).fill(itemCode);
  await page.getByRole("button", { name: "Buscar", exact: true }).click();
  const row = page.locator("[data-items] tbody tr").filter({ hasText: itemCode });
  await expect(row).toContainText(code);
  await expect(row).toContainText("₡25.000,50");
  await expect(row).toContainText(`Jardinería mensual ${project} con poda y abono`.slice(0, 25) + "…");

  // Edit: pick the exempt code; the tax type becomes Exento.
  await row.getByRole("link", { name: "Editar" }).click();
  await expect(page).toHaveURL(/\/edit-item\/\d+$/);
  await page.getByLabel("Buscar CABYS por código o descripción").fill(exemptCode);
  await page.getByRole("button", { name: "Buscar CABYS" }).click();
  await page.locator("[data-cabys-results] button").filter({ hasText: exemptCode }).click();
  await expect(page.getByLabel("Tipo de impuesto")).toHaveValue(await page.locator("#tax_type option", { hasText: "Exento" }).getAttribute("value") as string);
  await page.getByLabel("Precio", { exact: true }).fill("30000");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Artículo actualizado correctamente");

  await page.getByRole("searchbox", { name: "Buscar" }).fill(itemCode);
  await page.getByRole("button", { name: "Buscar", exact: true }).click();
  const edited = page.locator("[data-items] tbody tr").filter({ hasText: itemCode });
  await expect(edited).toContainText("₡30.000,00");
  await edited.getByText("Eliminar", { exact: true }).click();
  await expect(page.getByText("¿ Deseas eliminar el artículo ?")).toBeVisible();
  await page.getByRole("button", { name: "Sí, continuar" }).click();
  await expectToast(page, "Artículo eliminado");
  await page.getByRole("searchbox", { name: "Buscar" }).fill(itemCode);
  await page.getByRole("button", { name: "Buscar", exact: true }).click();
  await expect(page.getByText("No hay artículos.")).toBeVisible();
});
