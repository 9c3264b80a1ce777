// Received documents (issue 12), with JavaScript and without: a supplier's invoice (built and signed
// by the test with another company's test certificate, accepted by the local Hacienda simulator)
// uploaded, accepted, and our acceptance message (CCE) sent by the jobs and accepted by the
// simulator; partial acceptance and rejection with their detail; 'Procesar múltiples' on three rows;
// the deadline; hostile and foreign files refused with Spanish messages.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { zipSync, strToU8 } from "fflate";
import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "./fixtures.ts";
import { expect, expectToast, projectOf, signIn, test } from "./helpers.ts";
import { acceptedBySandbox, supplierDocument } from "../fixtures/receptions.ts";

const DEMO = { name: "Colibrí Demo S.A.", id: "3101123456" };

function tempFile(name: string, content: string | Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-recepcion-"));
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

/** A supplier's invoice to the demo company, already accepted by the simulator. */
async function acceptedInvoice(opts: { lines?: number } = {}) {
  const inv = supplierDocument({ receiver: DEMO, lines: opts.lines });
  const mh = await acceptedBySandbox(process.env.E2E_SANDBOX_URL!, inv);
  expect(mh.estado).toBe("aceptado");
  return { ...inv, mh: mh.respuestaXml };
}

const row = (page: Page, clave: string) => page.locator(`tr[data-clave="${clave}"]`);

async function openUpload(page: Page) {
  await page.goto("/message-receptors");
  await page.getByRole("link", { name: "Subir Nuevo XML" }).click();
  await expect(page.getByRole("dialog", { name: "Subir Nuevo XML" })).toBeVisible();
}

/** Reloads the list until the row's Hacienda column says `status`. */
async function expectRowStatus(page: Page, clave: string, status: string) {
  await expect(async () => {
    await page.reload();
    await expect(row(page, clave).locator("[data-hacienda]")).toContainText(status, { timeout: 1000 });
  }).toPass({ timeout: 90_000 });
}

test("a supplier's invoice is uploaded and accepted ('Nueva' category keeps the chosen file), and the CCE is sent and accepted by Hacienda", async ({ page }, info) => {
  test.setTimeout(180_000);
  const p = projectOf(info);
  const inv = await acceptedInvoice();
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await openUpload(page);
  await page.getByLabel("Archivo XML").setInputFiles(tempFile("factura-proveedor.xml", inv.xml));
  await page.getByLabel("Condición de aceptación").selectOption({ label: "Aceptado" });
  await page.getByLabel("Impuesto acreditable").fill("127000");
  // 'Nueva': a category made on the spot; what was typed and the file stay.
  await page.getByText("Nueva", { exact: true }).click();
  await page.getByLabel("Nombre de la categoría").fill(`Equipo de oficina ${p}`);
  await page.getByRole("button", { name: "Agregar categoría" }).click();
  await expect(page.getByText("Categoría creada")).toBeVisible();
  await expect(page.getByLabel("Categoría de gasto")).toHaveValue(/\d+/);
  await expect(page.getByLabel("Categoría de gasto").locator("option:checked")).toHaveText(`Equipo de oficina ${p}`);
  await expect(page.getByLabel("Impuesto acreditable")).toHaveValue("127000");
  await expect(page.locator("[data-kept-files]")).toContainText("factura-proveedor.xml");
  await page.getByLabel("Gasto aplicable").fill("1150000");
  await page.getByRole("button", { name: "Subir" }).click();
  await expect(page).toHaveURL(/\/message-receptors$/, { timeout: 30_000 });
  await expectToast(page, "Documento subido correctamente");
  await expect(page).toHaveURL(/\/message-receptors$/);
  await expect(row(page, inv.clave)).toContainText(inv.clave.slice(30, 40));
  await expect(row(page, inv.clave).locator("[data-acceptance]")).toContainText("Aceptado");
  // The jobs ask Hacienda about the supplier's invoice, then send our message and poll its answer.
  await expectRowStatus(page, inv.clave, "aceptado");
  const sent = await page.request.get(await row(page, inv.clave).getByRole("link", { name: "XML enviado" }).getAttribute("href").then((h) => h!));
  const xml = await sent.text();
  expect(xml).toContain("<MensajeReceptor");
  expect(xml).toContain(`<Clave>${inv.clave}</Clave>`);
  expect(xml).toMatch(/<NumeroConsecutivoReceptor>0010000105\d{10}<\/NumeroConsecutivoReceptor>/);
  expect(xml).toContain("<MontoTotalImpuestoAcreditar>127000.00000</MontoTotalImpuestoAcreditar>");
  expect(xml).toContain("<ds:Signature");
  const answer = await page.request.get(await row(page, inv.clave).getByRole("link", { name: "XML de respuesta" }).getAttribute("href").then((h) => h!));
  expect(await answer.text()).toContain("<MensajeHacienda");
  const pdf = await page.request.get(await row(page, inv.clave).getByRole("link", { name: "PDF" }).getAttribute("href").then((h) => h!));
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
});

/** Opens the upload dialog, adds a category of its own with 'Nueva' and keeps the form's other values. */
async function newCategory(page: Page, name: string) {
  await page.getByText("Nueva", { exact: true }).click();
  await page.getByLabel("Nombre de la categoría").fill(name);
  await page.getByRole("button", { name: "Agregar categoría" }).click();
  await expect(page.getByLabel("Categoría de gasto").locator("option:checked")).toHaveText(name);
}

test("partial acceptance and rejection, each with its detail: pending rows show the days left to reject, and the dashboard says so too", async ({ page }, info) => {
  test.setTimeout(180_000);
  const p = projectOf(info);
  const [a, b] = [await acceptedInvoice(), await acceptedInvoice()];
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await openUpload(page);
  // Two invoices and their Hacienda answers in one go, kept pending to decide later.
  await page.getByLabel("Archivo XML").setInputFiles([tempFile("a.xml", a.xml), tempFile("a-respuesta.xml", a.mh), tempFile("b.xml", b.xml), tempFile("b-respuesta.xml", b.mh)]);
  await page.getByLabel("Condición de aceptación").selectOption({ label: "Pendiente (procesar después)" });
  await newCategory(page, `Suministros ${p}`);
  await page.getByRole("button", { name: "Subir" }).click();
  await expect(page).toHaveURL(/\/message-receptors$/, { timeout: 30_000 });
  await expectToast(page, "2 documentos subidos correctamente");
  for (const d of [a, b]) {
    await expect(row(page, d.clave).locator("[data-acceptance]")).toContainText("Pendiente");
    await expect(row(page, d.clave).locator("[data-hacienda]")).toHaveText("Pendiente");
    await expect(row(page, d.clave).locator("[data-deadline]")).toHaveText(/^\d+ días? para rechazar \(hasta el \d{2}\/\d{2}\/\d{4}\)$/);
  }
  await page.goto("/dashboard");
  await expect(page.locator("[data-reception-deadlines]")).toContainText("pendientes de aceptar o rechazar");

  // Partial acceptance: detail and the tax condition of a current expense without credit.
  await page.goto("/message-receptors");
  await row(page, a.clave).getByRole("link", { name: "Procesar" }).click();
  await expect(page.getByRole("dialog", { name: "Procesar documento" })).toContainText("a.xml");
  await page.getByLabel("Condición de aceptación").selectOption({ label: "Aceptado Parcialmente" });
  await page.getByLabel("Detalle").fill("Faltaron 2 unidades del pedido");
  await page.getByLabel("Condición de impuesto").selectOption("04");
  await page.getByRole("dialog").getByRole("button", { name: "Procesar", exact: true }).click();
  await expectToast(page, "Actualizada correctamente");
  await expect(row(page, a.clave).locator("[data-acceptance]")).toContainText("Aceptado Parcialmente");
  await expect(row(page, a.clave).locator("[data-acceptance]")).toContainText("Faltaron 2 unidades del pedido");

  // Rejection: without detail it is refused and what was chosen stays; with it, it goes.
  await row(page, b.clave).getByRole("link", { name: "Procesar" }).click();
  await page.getByLabel("Condición de aceptación").selectOption({ label: "Rechazado" });
  await page.getByRole("dialog").getByRole("button", { name: "Procesar", exact: true }).click();
  await expect(page.getByText("El detalle es obligatorio cuando el documento no se acepta totalmente")).toBeVisible();
  await expect(page.getByLabel("Condición de aceptación")).toHaveValue("3");
  await page.getByLabel("Detalle").fill("Precio distinto al pactado");
  await page.getByRole("dialog").getByRole("button", { name: "Procesar", exact: true }).click();
  await expectToast(page, "Actualizada correctamente");
  await expect(row(page, b.clave).locator("[data-acceptance]")).toContainText("Rechazado");

  await expectRowStatus(page, a.clave, "aceptado");
  await expectRowStatus(page, b.clave, "aceptado");
  const xmlOf = async (clave: string) => (await page.request.get((await row(page, clave).getByRole("link", { name: "XML enviado" }).getAttribute("href"))!)).text();
  const partial = await xmlOf(a.clave);
  expect(partial).toContain("<Mensaje>2</Mensaje>");
  expect(partial).toContain("<DetalleMensaje>Faltaron 2 unidades del pedido</DetalleMensaje>");
  expect(partial).toMatch(/<NumeroConsecutivoReceptor>0010000106\d{10}<\/NumeroConsecutivoReceptor>/);
  const rejection = await xmlOf(b.clave);
  expect(rejection).toContain("<Mensaje>3</Mensaje>");
  expect(rejection).toContain("<DetalleMensaje>Precio distinto al pactado</DetalleMensaje>");
  expect(rejection).toMatch(/<NumeroConsecutivoReceptor>0010000107\d{10}<\/NumeroConsecutivoReceptor>/);
});

test("'Procesar múltiples' accepts three ticked rows received in one .zip", async ({ page }, info) => {
  test.setTimeout(180_000);
  const p = projectOf(info);
  const docs = [await acceptedInvoice(), await acceptedInvoice(), await acceptedInvoice()];
  const zip = zipSync(Object.fromEntries(docs.flatMap((d, i) => [[`facturas/f${i}.xml`, strToU8(d.xml)], [`facturas/f${i}_respuesta.xml`, strToU8(d.mh)]])));
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await openUpload(page);
  await page.getByLabel("Archivo XML").setInputFiles(tempFile("facturas.zip", zip));
  await page.getByLabel("Condición de aceptación").selectOption({ label: "Pendiente (procesar después)" });
  await newCategory(page, `Mantenimiento ${p}`);
  await page.getByRole("button", { name: "Subir" }).click();
  await expect(page).toHaveURL(/\/message-receptors$/, { timeout: 30_000 });
  await expectToast(page, "3 documentos subidos correctamente");
  // 'Procesar múltiples' shows once rows are ticked.
  await expect(page.getByRole("button", { name: "Procesar múltiples" })).toBeHidden();
  for (const d of docs) await row(page, d.clave).getByRole("checkbox").check();
  await page.getByRole("button", { name: "Procesar múltiples" }).click();
  const dialog = page.getByRole("dialog", { name: "Procesar múltiples" });
  for (const d of docs) await expect(dialog.locator("[data-process-docs]")).toContainText(d.clave.slice(30, 40));
  await page.getByLabel("Condición de aceptación").selectOption({ label: "Aceptado" });
  await page.getByLabel("Categoría de gasto").selectOption({ label: `Mantenimiento ${p}` });
  await page.getByRole("dialog").getByRole("button", { name: "Procesar", exact: true }).click();
  await expectToast(page, "Actualizada correctamente");
  for (const d of docs) await expect(row(page, d.clave).locator("[data-acceptance]")).toHaveText("Aceptado");
  for (const d of docs) await expectRowStatus(page, d.clave, "aceptado");
});

const samples = process.env.HACIENDA_SAMPLES_DIR ?? path.resolve(process.cwd(), "..", "shared", "hacienda", "samples");

test("hostile and foreign files are refused with their Spanish reason and nothing is stored", async ({ page }) => {
  test.setTimeout(120_000);
  const foreign = supplierDocument({ receiver: { name: "Otra Empresa S.A.", id: "3101999999" } });
  const mine = supplierDocument({ receiver: DEMO });
  const tampered = mine.xml.replace(/<TotalComprobante>[^<]+<\/TotalComprobante>/, "<TotalComprobante>1.00000</TotalComprobante>");
  const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><FacturaElectronica>&lol2;</FacturaElectronica>`;
  const deep = `<?xml version="1.0"?>${"<a>".repeat(200)}${"</a>".repeat(200)}`;
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await openUpload(page);
  await page
    .getByLabel("Archivo XML")
    .setInputFiles([
      tempFile("ajena.xml", foreign.xml),
      tempFile("alterada.xml", tampered),
      tempFile("entidades.xml", laughs),
      tempFile("anidado.xml", deep),
      tempFile("factura.pdf", "%PDF-1.4 no es un XML"),
      path.join(samples, "FE_v4.3_signed_devfynet_fe_firmada.xml"),
      path.join(samples, "MR_v4.2_signed_nehemiascr_factura.xml"),
    ]);
  await page.getByLabel("Condición de aceptación").selectOption({ label: "Pendiente (procesar después)" });
  await newCategory(page, `Varios ${projectOf(test.info())}`);
  await page.getByRole("button", { name: "Subir" }).click();
  const outcomes = page.locator("[data-upload-outcomes]");
  await expect(outcomes).toBeVisible({ timeout: 30_000 });
  await expect(outcomes).toContainText("ajena.xml: El comprobante está emitido a Otra Empresa S.A. (cédula 3101999999), no a Colibrí Demo S.A.");
  await expect(outcomes).toContainText("alterada.xml: La firma del comprobante no es válida");
  await expect(outcomes).toContainText("entidades.xml: El XML trae una declaración DOCTYPE o ENTITY");
  await expect(outcomes).toContainText("anidado.xml: El XML tiene más de 64 niveles de anidamiento");
  await expect(outcomes).toContainText("factura.pdf: El archivo no es un documento XML");
  await expect(outcomes).toContainText("FE_v4.3_signed_devfynet_fe_firmada.xml: La firma del comprobante no es válida");
  await expect(outcomes).toContainText("MR_v4.2_signed_nehemiascr_factura.xml: Es un mensaje de receptor");
  await expect(page.getByText("No se guardó ningún documento.")).toBeVisible();
  await page.goto("/message-receptors");
  for (const clave of [foreign.clave, mine.clave]) await expect(row(page, clave)).toHaveCount(0);

  // 50 MB is refused before it is read.
  await openUpload(page);
  await page.getByLabel("Archivo XML").setInputFiles(tempFile("enorme.xml", Buffer.alloc(50 * 1024 * 1024, 0x20)));
  await page.getByRole("button", { name: "Subir" }).click();
  await expect(page.locator("body")).toContainText(/demasiado grande|pesa más de/);
});
