// Journeys that exist only with JavaScript (the "js" project runs this file; the "nojs" project
// ignores *.js-only.spec.ts). Decision 155: what a page does not need before anyone touches it is
// loaded later — the forms' checks when a form is first focused, a dialog or a tab when it opens —
// and nothing of what the checks promise is lost on the way: a field left before they arrive is
// checked when they do, a save pressed before they arrive waits for them, and if they never arrive
// the server says the same.
import type { Page, Route } from "@playwright/test";
import { DEMO_PASSWORD } from "./fixtures.ts";
import { expect, signIn, test } from "./helpers.ts";

const CHECKS = /\/assets\/field-checks-[^/]+\.js$/;

/** Holds the field-checks script until `release()` (a slow link), counting its requests. */
async function holdChecks(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const requests: string[] = [];
  await page.route(CHECKS, async (route: Route) => {
    requests.push(route.request().url());
    await held;
    await route.continue();
  });
  return { release, requests };
}

/** The client page, once React runs it (the no-JavaScript 'Actualizar ubicación' button is gone). */
async function newClientPage(page: Page) {
  await page.goto("/new-client");
  await expect(page.getByRole("button", { name: "Actualizar ubicación" })).toHaveCount(0);
  return page.locator("[data-client-form]");
}

test.beforeEach(async ({ page }) => {
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await expect(page).not.toHaveURL(/\/login/);
});

test("the checks arrive with the first focus: a field left before they arrive is checked when they do", async ({ page }) => {
  const checks = await holdChecks(page);
  const form = await newClientPage(page);
  // Nothing of the checks in the page's first load.
  expect(checks.requests).toEqual([]);
  await form.getByLabel("Nombre", { exact: true }).focus();
  await expect.poll(() => checks.requests.length).toBe(1);
  await form.getByLabel("Nombre", { exact: true }).fill("");
  await form.getByLabel("Email", { exact: true }).focus();
  await page.waitForTimeout(300);
  await expect(form.getByText("El nombre es obligatorio")).toHaveCount(0);
  checks.release();
  await expect(form.getByText("El nombre es obligatorio")).toBeVisible();
  // From then on, as before: checked when left, cleared when corrected.
  await form.getByLabel("Email", { exact: true }).fill("no-es-correo");
  await form.getByLabel("Teléfono").focus();
  await expect(form.getByText("Ingresa un correo válido")).toBeVisible();
  await form.getByLabel("Nombre", { exact: true }).fill("Cliente de prueba");
  await expect(form.getByText("El nombre es obligatorio")).toHaveCount(0);
  expect(checks.requests).toHaveLength(1);
});

test("a save pressed before the checks arrive waits for them and stays on the page with everything typed", async ({ page }) => {
  const checks = await holdChecks(page);
  const form = await newClientPage(page);
  const posts: string[] = [];
  page.on("request", (r) => void (r.method() === "POST" && posts.push(r.url())));
  await form.getByLabel("Email", { exact: true }).fill("no-es-correo");
  await form.getByRole("button", { name: "Guardar" }).click();
  await page.waitForTimeout(300);
  expect(posts).toEqual([]);
  checks.release();
  await expect(form.getByText("El nombre es obligatorio")).toBeVisible();
  await expect(form.getByText("Ingresa un correo válido")).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Revisa los datos marcados." })).toBeVisible();
  await expect(page).toHaveURL(/\/new-client$/);
  await expect(form.getByLabel("Email", { exact: true })).toHaveValue("no-es-correo");
  expect(posts).toEqual([]);
});

test("when the checks cannot be loaded, the save goes to the server, which answers the same messages", async ({ page }) => {
  await page.route(CHECKS, (route) => route.abort());
  const form = await newClientPage(page);
  await form.getByLabel("Email", { exact: true }).fill("no-es-correo");
  await form.getByLabel("Teléfono").focus();
  const posted = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("/new-client"));
  await form.getByRole("button", { name: "Guardar" }).click();
  await posted;
  await expect(form.getByText("El nombre es obligatorio")).toBeVisible();
  await expect(form.getByText("Ingresa un correo válido")).toBeVisible();
  await expect(form.getByLabel("Email", { exact: true })).toHaveValue("no-es-correo");
});

test("a dialog or a tab loads its code when it opens, and works: the client dialog over the list, opened by a click or by its address, and the client detail's tabs", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (r) => void (r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname)));
  await page.goto("/clients");
  await page.waitForLoadState("networkidle");
  expect(scripts.filter((s) => /\/client-(dialog|form)-/.test(s))).toEqual([]);

  // Opened by a click: its code arrives then; the form in it is checked as it is left.
  await page.getByRole("link", { name: "Nuevo Cliente" }).click();
  const dialog = page.locator("[data-client-dialog]");
  await expect(dialog).toBeVisible();
  expect(scripts.some((s) => /\/client-dialog-/.test(s))).toBe(true);
  await dialog.getByLabel("Nombre", { exact: true }).focus();
  await dialog.getByLabel("Email", { exact: true }).focus();
  await expect(dialog.getByText("El nombre es obligatorio")).toBeVisible();

  // Opened by its address: the server's dialog comes alive once its code arrives.
  await page.goto("/clients?new=1");
  await expect(page.locator("[data-client-dialog]").getByRole("button", { name: "Actualizar ubicación" })).toHaveCount(0);
  await page.locator("[data-client-dialog]").getByLabel("Email", { exact: true }).fill("no-es-correo");
  await page.locator("[data-client-dialog]").getByLabel("Teléfono").focus();
  await expect(page.locator("[data-client-dialog]").getByText("Ingresa un correo válido")).toBeVisible();
  await page.locator("[data-client-dialog]").getByRole("link", { name: "Cerrar" }).click();
  await expect(page.locator("[data-client-dialog]")).toHaveCount(0);
  await expect(page.locator("[data-clients]")).toBeVisible();

  // The client detail: the documents tab and back to Información, each loaded when opened.
  await page.locator("[data-clients] tbody tr").first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/client-detail\/\d+$/);
  await expect(page.locator("[data-client-form]")).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Pestañas" });
  await tabs.getByRole("link", { name: "Facturas", exact: true }).click();
  await expect(page.locator("[data-documents]")).toBeVisible();
  expect(scripts.some((s) => /\/client-documents-/.test(s))).toBe(true);
  await tabs.getByRole("link", { name: "Información" }).click();
  await expect(page.locator("[data-client-form]")).toBeVisible();
  await expect(page.locator("[data-documents]")).toHaveCount(0);
});

test("the full-screen client popup opened by its address is the page alone: the list's code arrives when it is closed", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (r) => void (r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname)));
  await page.goto("/providers?new=1");
  const dialog = page.locator("[data-client-dialog]");
  await expect(dialog.getByRole("button", { name: "Actualizar ubicación" })).toHaveCount(0);
  await page.waitForLoadState("networkidle");
  expect(scripts.some((s) => /\/client-form-/.test(s))).toBe(true);
  expect(scripts.filter((s) => /\/(client-list-view|pagination|confirm)-/.test(s))).toEqual([]);
  await expect(page.locator("[data-clients]")).toHaveCount(0);
  await expect(dialog.getByRole("heading", { name: "Nuevo Proveedor" })).toBeVisible();

  await dialog.getByRole("link", { name: "Cerrar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator("[data-clients]")).toBeVisible();
  expect(scripts.some((s) => /\/client-list-view-/.test(s))).toBe(true);
  await expect(page).toHaveURL(/\/providers$/);
});
