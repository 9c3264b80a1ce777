// The integrator API from the company's side, with JavaScript on and off: an admin sets the API user
// and password on Configuraciones › API, the integrator (Playwright's request client) gets a token,
// creates a client and issues an invoice with its control number, which the invoices list shows in
// 'N° de control'; the token is listed and revoked; a webhook is registered (its key shown once);
// /api/docs is a page without scripts.
import { account } from "./fixtures.ts";
import { expect, expectToast, projectOf, signIn, test } from "./helpers.ts";

test("Configuraciones › API: credentials, an invoice through the API in 'N° de control', revoke, webhook", async ({ page, request }, info) => {
  const p = projectOf(info);
  await signIn(page, account("apiadmin", p));
  await page.goto("/all-companies");
  const href = await page.locator("tr", { hasText: `Integrador ${p} S.A.` }).getByRole("link", { name: "Configuraciones" }).getAttribute("href");
  await page.goto(href!);
  await page.getByRole("link", { name: "API", exact: true }).click();
  await expect(page.getByRole("heading", { name: `API — Integrador ${p} S.A.` })).toBeVisible();

  // A short password is refused with the company form's message; what was typed stays.
  await page.getByLabel("Usuario API").fill(`pos-${p}`);
  await page.getByLabel(/Nueva contraseña API/).fill("123");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("La contraseña API debe tener entre 6 y 30 caracteres")).toBeVisible();
  await expect(page.getByLabel("Usuario API")).toHaveValue(`pos-${p}`);
  await page.getByLabel(/Nueva contraseña API/).fill("clave-pos-123");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Credenciales de la API guardadas correctamente");

  const token = await request.post("/api/v1/auth/token", { data: { username: `pos-${p}`, password: "clave-pos-123" } });
  expect(token.status()).toBe(200);
  const { access_token } = await token.json();
  const auth = { authorization: `Bearer ${access_token}` };
  const client = await request.post("/api/v1/clients", {
    headers: auth,
    data: { name: `Cliente API ${p}`, identification_type: 2, identification: p === "js" ? "3101999991" : "3101999992", email: "cliente@example.cr", phone: "22224444", address: "Frente al parque", province: 1, canton: 1, district: 1 },
  });
  expect(client.status()).toBe(201);
  const control = `ERP-${p}-0001`;
  const invoice = await request.post("/api/v1/documents", {
    headers: { ...auth, "idempotency-key": `factura-${p}-1` },
    data: { kind: "fe", clientId: (await client.json()).id, controlNumber: control, lines: [{ cabys: "4523000000100", description: "Servicio de integración", quantity: 1, unitPrice: "25000", tax: { code: "01", tarifaCode: "08" } }] },
  });
  expect(invoice.status(), await invoice.text()).toBe(201);

  await page.goto("/invoices");
  await expect(page.getByRole("columnheader", { name: "N° de control" })).toBeVisible();
  await expect(page.getByRole("cell", { name: control })).toBeVisible();
  await expect(page.getByRole("link", { name: "Nueva Factura" })).toHaveCount(0);

  // The token is listed and revoked.
  await page.goto(href!.replace("main-configurations", "config-api"));
  const row = page.locator("[data-api-tokens] tr", { hasText: "Usuario API" });
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: "Revocar" }).click();
  await expectToast(page, "Token revocado");
  expect((await request.get("/api/v1/documents", { headers: auth })).status()).toBe(401);

  // A webhook: its signing key is shown once.
  await page.getByLabel("URL").fill(`https://erp-${p}.example.com/colibri`);
  await page.getByRole("checkbox", { name: "Documento aceptado por Hacienda" }).check();
  await page.getByRole("button", { name: "Registrar webhook" }).click();
  await expect(page.locator("[data-secret]")).toContainText("whsec_");
  await expect(page.locator("[data-webhooks]")).toContainText(`https://erp-${p}.example.com/colibri`);
  await page.goto(href!.replace("main-configurations", "config-api"));
  await expect(page.locator("[data-webhooks]")).toContainText(`https://erp-${p}.example.com/colibri`);
  await expect(page.locator("[data-secret]")).toHaveCount(0);
});

test("/api/docs is a readable page without scripts, and the OpenAPI document is served", async ({ page, request }) => {
  await page.goto("/api/docs");
  await expect(page.getByRole("heading", { name: "API de Colibrí" })).toBeVisible();
  await expect(page.getByText("POST /api/v1/documents", { exact: true })).toBeVisible();
  expect(await page.locator("script[src]").count()).toBe(0);
  const doc = await request.get("/api/v1/openapi.json");
  expect(doc.status()).toBe(200);
  expect((await doc.json()).openapi).toBe("3.1.0");
});
