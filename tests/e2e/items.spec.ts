// Items journeys, with JavaScript on (project js) and off (project nojs): the super-admin imports a CABYS
// spreadsheet (the demo company's admin does not see the import: the catalogue is shared), then the admin creates an item in the dialog over the list with a CABYS code picked from the search
// (the tax type follows its rate), edits it in the dialog and on the standalone page, and deletes it.
import { DEMO_PASSWORD, PASSWORD, SUPER_ADMIN } from "./fixtures.ts";
import { expect, expectToast, projectOf, signIn, test } from "./helpers.ts";
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
  await signIn(page, SUPER_ADMIN, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/items");
  await page.getByLabel("Archivo CABYS").setInputFiles(file);
  await page.getByRole("button", { name: "Importar catálogo" }).click();
  await expectToast(page, /Catálogo CABYS actualizado: 30 códigos importados/);

  // A file that is not an xlsx is refused with a clear message.
  await page.getByLabel("Archivo CABYS").setInputFiles({ name: "cabys.csv", mimeType: "text/csv", buffer: Buffer.from("a,b\n1,2\n") });
  await page.getByRole("button", { name: "Importar catálogo" }).click();
  await expect(page.locator("[data-import-errors]")).toContainText("El archivo no es un libro de Excel (.xlsx) válido");
  await page.getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The demo company's administrator works with the catalogue but does not import it.
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/items");
  await expect(page.locator("[data-cabys-import]")).toHaveCount(0);

  // Create through the dialog over the list (?new=1); a validation error keeps everything typed.
  await page.goto("/items");
  await page.getByRole("link", { name: "Nuevo artículo" }).click();
  await expect(page).toHaveURL(/\/items\?new=1$/);
  const dialog = page.getByRole("dialog", { name: "Nuevo artículo" });
  await expect(dialog).toBeVisible();
  const itemCode = `E2E-${project}`;
  const itemName = `Jardinería mensual ${project} con poda y abono`;
  await dialog.getByLabel("Código", { exact: true }).fill(itemCode);
  await dialog.getByLabel("Nombre", { exact: true }).fill(itemName);
  await dialog.getByLabel("Descripción", { exact: true }).fill("Mantenimiento de jardín");
  await dialog.getByLabel("Buscar CABYS por código o descripción").fill(`colibri ${project} jardineria`);
  await dialog.getByRole("button", { name: "Buscar CABYS" }).click();
  await dialog.locator("[data-cabys-results] button").filter({ hasText: code }).click();
  await expect(dialog.getByLabel("Código CABYS", { exact: true })).toHaveValue(code);
  await expect(dialog.getByLabel("Tipo de impuesto")).toHaveValue((await dialog.locator("#tax_type option", { hasText: "IVA 4%" }).getAttribute("value")) as string);
  // Colones is the default (integration test); chosen here so the row's symbol is the typed one.
  await dialog.getByLabel("Moneda").selectOption("2");
  await dialog.getByLabel("Precio", { exact: true }).fill("25.000,555");
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog.getByText("El precio debe ser un número con máximo 2 decimales")).toBeVisible();
  await expect(page).toHaveURL(/\/items\?new=1$/);
  await expect(dialog.getByLabel("Nombre", { exact: true })).toHaveValue(itemName);
  await expect(dialog.getByLabel("Código CABYS", { exact: true })).toHaveValue(code);
  await dialog.getByLabel("Precio", { exact: true }).fill("25000.5");
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Artículo Guardado correctamente");
  await expect(page).toHaveURL(/\/items$/);
  await expect(page.getByRole("dialog", { name: "Nuevo artículo" })).toHaveCount(0);

  await page.getByRole("searchbox", { name: "Buscar" }).fill(itemCode);
  await page.getByRole("button", { name: "Buscar", exact: true }).click();
  // The new item may already show on the list before the search: wait for the search's page.
  await expect(page).toHaveURL(new RegExp(`/items\\?.*\\bsearch=${itemCode}(&|$)`));
  const row = page.locator("[data-items] tbody tr").filter({ hasText: itemCode });
  await expect(row).toContainText(code);
  await expect(row).toContainText("₡25.000,50");
  await expect(row).toContainText(itemName.slice(0, 25) + "…");

  // "Cerrar" goes back to the list without saving.
  await row.getByRole("link", { name: "Editar" }).click();
  const editDialog = page.getByRole("dialog", { name: "Editar artículo" });
  await expect(editDialog.getByLabel("Código", { exact: true })).toHaveValue(itemCode);
  await editDialog.getByRole("link", { name: "Cerrar" }).click();
  await expect(page.getByRole("dialog", { name: "Editar artículo" })).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/items\\?search=${itemCode}$`));

  // Edit through the dialog: pick the exempt code; the tax type becomes Exento; back to the same search.
  await row.getByRole("link", { name: "Editar" }).click();
  await expect(page).toHaveURL(new RegExp(`/items\\?search=${itemCode}&edit=\\d+$`));
  await editDialog.getByLabel("Buscar CABYS por código o descripción").fill(exemptCode);
  await editDialog.getByRole("button", { name: "Buscar CABYS" }).click();
  await editDialog.locator("[data-cabys-results] button").filter({ hasText: exemptCode }).click();
  await expect(editDialog.getByLabel("Tipo de impuesto")).toHaveValue((await editDialog.locator("#tax_type option", { hasText: "Exento" }).getAttribute("value")) as string);
  await editDialog.getByLabel("Precio", { exact: true }).fill("30000");
  await editDialog.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Artículo actualizado correctamente");
  await expect(page).toHaveURL(new RegExp(`/items\\?search=${itemCode}$`));
  await expect(row).toContainText("₡30.000,00");

  // The standalone edit page stays, and returns to the list after saving.
  const id = await row.getAttribute("data-item-id");
  await page.goto(`/edit-item/${id}`);
  await page.getByLabel("Precio", { exact: true }).fill("31000");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Artículo actualizado correctamente");
  await expect(page).toHaveURL(/\/items$/);

  await page.getByRole("searchbox", { name: "Buscar" }).fill(itemCode);
  await page.getByRole("button", { name: "Buscar", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/items\\?.*\\bsearch=${itemCode}(&|$)`));
  const edited = page.locator("[data-items] tbody tr").filter({ hasText: itemCode });
  await expect(edited).toContainText("₡31.000,00");
  await edited.getByText("Eliminar", { exact: true }).click();
  await expect(page.getByText("¿ Deseas eliminar el artículo ?")).toBeVisible();
  await page.getByRole("button", { name: "Sí, continuar" }).click();
  await expectToast(page, "Artículo eliminado");
  await page.getByRole("searchbox", { name: "Buscar" }).fill(itemCode);
  await page.getByRole("button", { name: "Buscar", exact: true }).click();
  await expect(page.getByText("No hay artículos.")).toBeVisible();
});
