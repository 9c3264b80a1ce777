import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "./fixtures.ts";
import { claveOf, expect, expectAccepted, expectAcceptedAndMailed, expectDocumentFiles, expectToast, fillLine, newClient, projectOf, signIn, test } from "./helpers.ts";

/** A client of its own and an invoice to it with one line; ends on the invoice's detail page. */
async function invoiceToNewClient(page: Page, name: string, identification: string) {
  await newClient(page, { name, identification, email: "notas@example.cr" });
  await page.goto("/new-invoice");
  await page.getByLabel("Cliente", { exact: true }).selectOption({ label: `${name} (${identification})` });
  await fillLine(page, 1, { cabys: "4523000000100", description: "Computadora portátil 14 pulgadas", quantity: "2", price: "450000", tax: "IVA 13%" });
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Factura guardada con exito");
  await expect(page).toHaveURL(/\/detail\/invoice\/\d+$/);
}

/**
 * From an invoice's detail page, its 'Nota de crédito' or 'Nota de débito' action: the note's form
 * with the invoice's lines and the reference to it locked (its clave; code 01 to start with); returns that clave.
 */
async function openNoteForm(page: Page, title: "Nota de crédito" | "Nota de débito") {
  await page.locator("[data-detail-actions]").getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(title === "Nota de crédito" ? /\/new-note\/nc\/invoice\/\d+$/ : /\/new-note\/nd\/invoice\/\d+$/);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  const clave = (await page.locator('[data-fact="Documento de referencia"]').textContent())!.trim();
  expect(clave).toMatch(/^\d{50}$/);
  await expect(page.locator("[data-reference-field=number]")).toHaveText(clave);
  // The code is a choice (issue 14 point 9): 01 by default.
  await expect(page.getByLabel("Código de referencia")).toHaveValue("01");
  await expect(page.getByLabel("Cliente", { exact: true })).toBeDisabled();
  await expect(page.getByLabel("Descripción (línea 1)")).toHaveValue("Computadora portátil 14 pulgadas");
  return clave;
}

test("from an issued invoice's detail page, a partial credit note with the locked reference lands on its detail", async ({ page }, info) => {
  test.setTimeout(180_000);
  const p = projectOf(info);
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await invoiceToNewClient(page, `Cliente Nota ${p}`, p === "js" ? "109870671" : "109870672");
  await openNoteForm(page, "Nota de crédito");

  // Missing reason and note: the errors show and the lowered quantity is kept.
  await page.getByLabel("Cantidad (línea 1)").fill("1");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Complete todos los campos de la referencia.")).toBeVisible();
  await expect(page.getByText("La nota es obligatoria para notas de crédito y débito.")).toBeVisible();
  await expect(page.getByLabel("Cantidad (línea 1)")).toHaveValue("1");

  await page.getByLabel("Razón").fill("Devolución de una computadora");
  await page.getByLabel("Nota", { exact: true }).fill("El cliente devolvió una unidad");
  await page.getByRole("button", { name: "Recalcular" }).click();
  await expect(page.getByTestId("document-total")).toHaveText("₡508.500,00");
  // Half the invoice with 'Anula documento' (01) is refused; 'Corrige monto' (02) is what it is.
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Esta nota de crédito no anula todo el documento")).toBeVisible();
  await page.getByLabel("Código de referencia").selectOption("02");
  const since = Date.now();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Nota guardada con exito");
  await expect(page).toHaveURL(/\/detail\/note\/\d+$/);
  // Accepted by the local Hacienda simulator and e-mailed to the client with its three files, which
  // also download from here; its public link opens for anyone.
  await expectAcceptedAndMailed(page, "notas@example.cr", since);
  await expectDocumentFiles(page);
});

test("from an accepted invoice's detail page, a debit note with the locked reference is accepted and reaches the client", async ({ page }, info) => {
  test.setTimeout(180_000);
  const p = projectOf(info);
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await invoiceToNewClient(page, `Cliente Débito ${p}`, p === "js" ? "109870701" : "109870702");
  await expectAccepted(page);
  const invoiceClave = await claveOf(page);
  expect(await openNoteForm(page, "Nota de débito")).toBe(invoiceClave);

  // A charge the invoice left out: one line of its own.
  await page.getByLabel("Descripción (línea 1)").fill("Intereses por pago tardío");
  await page.getByLabel("Cantidad (línea 1)").fill("1");
  await page.getByLabel("Precio (línea 1)").fill("20000");
  await page.getByLabel("Razón").fill("Intereses por pago tardío");
  await page.getByLabel("Nota", { exact: true }).fill("Cargo por intereses de mora");
  await page.getByRole("button", { name: "Recalcular" }).click();
  await expect(page.getByTestId("document-total")).toHaveText("₡22.600,00");
  await expect(page.getByLabel("Descripción (línea 1)")).toHaveValue("Intereses por pago tardío");
  const since = Date.now();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Nota guardada con exito");
  await expect(page).toHaveURL(/\/detail\/note\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: /^Nota de débito electrónica \d{20}$/ })).toBeVisible();
  await expectAcceptedAndMailed(page, "notas@example.cr", since);
  await expectDocumentFiles(page);
});

test("a purchase invoice (FEC) to a provider created for it", async ({ page }, info) => {
  test.setTimeout(180_000);
  const p = projectOf(info);
  const name = `Proveedor Compra ${p}`;
  const identification = p === "js" ? "109870681" : "109870682";
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);

  await page.goto("/simples");
  await page.locator("[data-new-document]").click();
  await expect(page).toHaveURL(/\/new-simple$/);
  await expect(page.getByRole("heading", { name: "Nueva factura de compra" }).last()).toBeVisible();
  await expect(page.locator('[data-fact="Consecutivo"]')).toHaveText(/^\d{8}08\d{10}$/);
  const provider = page.getByLabel("Proveedor", { exact: true });
  // Only providers are offered.
  await expect(provider.locator("option", { hasText: "Cliente Nota" })).toHaveCount(0);
  await fillLine(page, 1, { cabys: "0113100000100", description: "Café en grano oro", quantity: "50", price: "3200", tax: "IVA 1%" });

  // The provider is new: 'Nuevo proveedor' keeps the typed line, adds it on its page and comes back with it chosen.
  await page.locator("[data-quick-add]").click();
  await expect(page).toHaveURL(/\/new-client\?volver=%2Fnew-simple$/);
  const form = page.locator("[data-client-form]");
  await form.getByLabel("Nombre", { exact: true }).fill(name);
  await form.getByLabel("Identificación", { exact: true }).fill(identification);
  await form.getByLabel("Email", { exact: true }).fill("notas@example.cr");
  await form.getByLabel("Teléfono").fill("88887777");
  await form.getByLabel("Dirección").fill("200 m sur de la escuela");
  await form.getByLabel("Actividad económica").fill("0128.0");
  await page.locator("#contact_name_0").fill("Contacto Uno");
  await page.locator("#contact_email_0").fill("uno@example.cr");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Cliente Guardado Correctamente");
  await expect(page).toHaveURL(/\/new-simple\?id=\d+&restore=1$/);
  await expect(provider.locator("option:checked")).toHaveText(`${name} (${identification})`);
  await expect(page.getByLabel("Descripción (línea 1)")).toHaveValue("Café en grano oro");
  await page.getByLabel("Número del documento de referencia").fill(`REG-ESP-${p}`);
  await page.getByRole("button", { name: "Guardar" }).click();
  // The reason is missing: the error shows and the typed reference number stays.
  await expect(page.getByText("Complete todos los campos de la referencia.")).toBeVisible();
  await expect(page.getByLabel("Número del documento de referencia")).toHaveValue(`REG-ESP-${p}`);
  await page.getByLabel("Razón").fill("Compra a productor de régimen especial");
  const since = Date.now();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Factura guardada con exito");
  await expect(page).toHaveURL(/\/detail\/simple\/\d+$/);
  await expectAcceptedAndMailed(page, "notas@example.cr", since);
  await expectDocumentFiles(page);
});
