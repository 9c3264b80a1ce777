// Company configuration journeys, with JavaScript on and off (projects js / nojs): upload a generated
// test key with its PIN and 'probar llave', set the numbering, 'probar acceso' against the local
// sandbox the server started for the demo company, save the general configuration, configure the
// company's SMTP server and send a real test e-mail; staff do not see the admin screens.
import type { Page } from "@playwright/test";
import { makeTestP12 } from "../../app/hacienda/cert.ts";
import { account, DEMO_PASSWORD } from "./fixtures.ts";
import { expect, expectToast, projectOf, signIn, test, waitForMail } from "./helpers.ts";

const DAY = 86_400_000;

/** The demo company's id, from the Configuraciones link of its row. */
async function demoCompanyId(page: Page): Promise<string> {
  await page.goto("/all-companies");
  const href = await page.locator("tr", { hasText: "Colibrí Demo S.A." }).getByRole("link", { name: "Configuraciones" }).getAttribute("href");
  return /\/main-configurations\/(\d+)/.exec(href ?? "")![1]!;
}

test("Hacienda: upload a generated key with its PIN, probar llave, numbering, probar acceso against the sandbox", async ({ page }, info) => {
  const pin = projectOf(info) === "js" ? "2468" : "1357";
  const now = Date.now();
  const p12 = makeTestP12({ cedula: "3101123456", idType: "02", name: `LLAVE E2E ${projectOf(info).toUpperCase()}`, pin, notBefore: new Date(now - DAY), notAfter: new Date(now + 365 * DAY) });
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  const id = await demoCompanyId(page);
  await page.goto(`/config-hacienda/${id}`);

  // A wrong PIN is refused with a clear message and the typed numbering stays.
  const number = projectOf(info) === "js" ? "1500" : "2500";
  await page.getByLabel("Factura electrónica (FE)").fill(number);
  await page.getByLabel("Archivo de la llave (.p12)").setInputFiles({ name: "llave.p12", mimeType: "application/x-pkcs12", buffer: p12 });
  await page.getByLabel("PIN de la llave").fill("0000");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("El PIN de la llave criptográfica es incorrecto.")).toBeVisible();
  await expect(page.getByLabel("Factura electrónica (FE)")).toHaveValue(number);
  await expect(page.getByLabel("PIN de la llave")).toHaveValue("");

  // A key of another cédula is refused naming both numbers, and offers to confirm it.
  const foreign = makeTestP12({ cedula: "109870654", idType: "01", name: "OTRA PERSONA", pin, notBefore: new Date(now - DAY), notAfter: new Date(now + 365 * DAY) });
  await page.getByLabel("Archivo de la llave (.p12)").setInputFiles({ name: "otra.p12", mimeType: "application/x-pkcs12", buffer: foreign });
  await page.getByLabel("PIN de la llave").fill(pin);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("La llave pertenece a la cédula 109870654 y la compañía tiene la cédula 3101123456.")).toBeVisible();
  await expect(page.getByLabel("Usar esta llave de otra cédula")).not.toBeChecked();
  await expect(page.getByLabel("Factura electrónica (FE)")).toHaveValue(number);

  // The right PIN saves.
  await page.getByLabel("Archivo de la llave (.p12)").setInputFiles({ name: "llave.p12", mimeType: "application/x-pkcs12", buffer: p12 });
  await page.getByLabel("PIN de la llave").fill(pin);
  await page.getByLabel("Ambiente").selectOption("sandbox");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Configuración guardada correctamente");
  await expect(page.getByLabel("Factura electrónica (FE)")).toHaveValue(number);
  await expect(page.locator("[data-stored-key]")).toContainText("cédula 3101123456");
  await expect(page.getByLabel("Contraseña de Hacienda")).toHaveValue("");

  await page.getByRole("button", { name: "probar llave" }).click();
  await expect(page.locator("[data-key-subject]")).toContainText(`LLAVE E2E ${projectOf(info).toUpperCase()}`);
  await expect(page.locator("[data-key-cedula]")).toHaveText("3101123456");
  await expect(page.locator("[data-key-days]")).toHaveText(/^36[45]$/);

  await page.getByRole("button", { name: "probar acceso" }).click();
  await expect(page.locator("[data-access-test]")).toContainText("Hacceso a hacienda correcto");
});

test("general configuration from the Generales tab", async ({ page }, info) => {
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  const id = await demoCompanyId(page);
  await page.goto(`/main-configurations/${id}`);
  await expect(page.getByRole("link", { name: "Servidor Email" })).toBeVisible();
  const name = `Proforma ${projectOf(info)}`;
  await page.getByLabel("Nombre de la cotización").fill("");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByRole("alert")).toHaveText("faltan datos");
  await page.getByLabel("Nombre de la cotización").fill(name);
  await page.getByLabel("Moneda de emisión de documentos").selectOption("2");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Guardado correctamente");
  await expect(page.getByLabel("Nombre de la cotización")).toHaveValue(name);
  await expect(page.getByLabel("Moneda de emisión de documentos")).toHaveValue("2");
});

test("Servidor Email: save the company's SMTP server and send a real test e-mail", async ({ page }, info) => {
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  const id = await demoCompanyId(page);
  await page.goto(`/main-configurations/${id}`);
  await page.getByRole("link", { name: "Servidor Email" }).click();
  await expect(page.getByRole("heading", { name: "Servidor de correo saliente" })).toBeVisible();
  await page.getByLabel("Servidor (host)").fill("127.0.0.1");
  await page.getByLabel("Puerto", { exact: true }).fill(process.env.E2E_SMTP_PORT!);
  await page.getByLabel("Usuario", { exact: true }).fill("empresa");
  await page.getByLabel("Contraseña", { exact: true }).fill("clave-smtp");
  await page.getByLabel("Correo del remitente").fill("facturas@demo.cr");
  await page.getByLabel("Nombre del remitente").fill("");
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  await expect(page.locator("[data-form-message]")).toHaveText("Faltan datos");
  await expect(page.getByLabel("Servidor (host)")).toHaveValue("127.0.0.1");
  await page.getByLabel("Contraseña", { exact: true }).fill("clave-smtp");
  await page.getByLabel("Nombre del remitente").fill("Colibrí Demo");
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  await expectToast(page, "Configuración guardada correctamente");
  await expect(page.getByLabel("Contraseña", { exact: true })).toHaveValue("");
  await expect(page.getByLabel("Contraseña", { exact: true })).toHaveAttribute("placeholder", "Dejar en blanco para conservar");

  // The run's mailbox accepts only the company's credentials, so the message proves they were used.
  const to = `prueba-${projectOf(info)}@destino.cr`;
  const since = Date.now();
  await page.getByLabel("Enviar a").fill(to);
  await page.getByRole("button", { name: "enviar correo de prueba" }).click();
  await expect(page.locator("[data-form-message]")).toHaveText(`Correo de prueba enviado a ${to}`);
  const mail = await waitForMail(to, since);
  expect(mail).toContain("Este es un correo de prueba enviado desde Colibr");
  expect(mail).toContain("facturas@demo.cr");
});

test("templates: edit the payment reminder with a preview", async ({ page }) => {
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  const id = await demoCompanyId(page);
  await page.goto(`/main-configurations/${id}?tab=plantillas`);
  await page.getByRole("link", { name: "Recordatorio de pago" }).click();
  await expect(page.getByRole("heading", { name: "Plantilla: Recordatorio de pago" })).toBeVisible();
  await page.getByLabel("Asunto").fill("");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByRole("alert")).toHaveText("flatan datos");
  await page.getByLabel("Asunto").fill("Recordatorio para {cliente}");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Guardado correctamente");
  await expect(page.locator("[data-preview-subject]")).toHaveText("Recordatorio para María Rodríguez Solís");
});

test("staff see no admin tab and are refused on the admin screens", async ({ page }, info) => {
  await signIn(page, account("staff", projectOf(info)));
  await page.goto("/companies");
  const href = await page.getByRole("link", { name: "Configuraciones" }).first().getAttribute("href");
  const id = /\/main-configurations\/(\d+)/.exec(href ?? "")![1]!;
  await page.goto(`/main-configurations/${id}`);
  await expect(page.getByRole("link", { name: "Generales" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Servidor Email" })).toHaveCount(0);
  expect((await page.goto(`/config-hacienda/${id}`))!.status()).toBe(403);
  expect((await page.goto(`/config-email/${id}`))!.status()).toBe(403);
  expect((await page.goto(`/config-hacienda/999999`))!.status()).toBe(404);
});
