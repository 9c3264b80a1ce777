// Received documents (issue 12), with JavaScript and without: a supplier's invoice (built and signed
// by the test with another company's test certificate, accepted by the local Hacienda simulator)
// uploaded, accepted, and our acceptance message (CCE) sent by the jobs and accepted by the
// simulator; partial acceptance and rejection with their detail; 'Procesar múltiples' on three rows;
// the deadline; hostile and foreign files refused with Spanish messages.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { zipSync, strToU8 } from "fflate";
import { expect, test, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "./fixtures.ts";
import { expectToast, projectOf, signIn } from "./helpers.ts";
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
