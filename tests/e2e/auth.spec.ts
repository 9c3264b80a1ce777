import { account, DEMO_PASSWORD } from "./fixtures.ts";
import { expect, expectToast, mailText, projectOf, signIn, test, waitForMail } from "./helpers.ts";

test("the demo credentials sign in and land on the dashboard", async ({ page }) => {
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectToast(page, "La compañia Colibrí Demo S.A. esta activa");
  // Other journeys issue invoices on the shared demo company, so only the format is fixed here.
  await expect(page.locator("[data-stat=Facturas] [data-amount]")).toHaveText(/^₡\d{1,3}(\.\d{3})*,\d{2}$/);
  // The received-documents journeys accept suppliers' invoices on the demo company (they count as
  // expenses), so the month's expenses card shows either its list or the empty text.
  await expect(page.getByRole("heading", { name: "Gastos mes actual" })).toBeVisible();
});

test("a wrong password shows the error and keeps the e-mail", async ({ page }, info) => {
  const email = account("staff", projectOf(info));
  await signIn(page, email, "equivocada");
  await expect(page.getByRole("alert")).toHaveText("Correo o contraseña incorrectos.");
  await expect(page.getByLabel("Correo")).toHaveValue(email);
  await expect(page).toHaveURL(/\/login$/);
});

test("repeated wrong passwords: the page says how long to wait, keeps the e-mail, and even the right password waits", async ({ page }, info) => {
  const email = account("throttled", projectOf(info));
  const wrong = async (i: number) => {
    await signIn(page, email, `equivocada-${i}`);
    await expect(page.getByRole("alert")).toHaveText("Correo o contraseña incorrectos.");
  };
  for (let i = 0; i < 5; i++) await wrong(i);
  // Past five, each further attempt waits longer (2 s, then 4 s, then 8 s): wait them out, then the
  // right password comes within the 8 s and is refused with the wait.
  await page.waitForTimeout(2200);
  await wrong(5);
  await page.waitForTimeout(4200);
  await wrong(6);
  await signIn(page, email);
  await expect(page.getByRole("alert")).toHaveText(/^Demasiados intentos fallidos\. Inténtalo de nuevo en \d+ segundos?\.$/);
  await expect(page.getByLabel("Correo")).toHaveValue(email);
  await expect(page).toHaveURL(/\/login$/);
});

test("password reset through the e-mailed link", async ({ page }, info) => {
  const email = account("reset", projectOf(info));
  const since = Date.now();
  await page.goto("/login");
  await page.getByRole("link", { name: "¿Olvidaste tu contraseña?" }).click();
  await page.getByLabel("Correo").fill(email);
  await page.getByRole("button", { name: "Enviar enlace" }).click();
  await expectToast(page, "Se ha enviado un link a tu correo desde el cual podras recuperar tu contraseña");
  const mail = mailText(await waitForMail(email, since));
  const link = /http:\/\/127\.0\.0\.1:\d+\/password\/reset\/[A-Za-z0-9_-]+/.exec(mail)?.[0];
  expect(link).toBeTruthy();
  await page.goto(link!);
  await page.getByLabel("Correo").fill(email);
  await page.getByLabel("Nueva contraseña").fill("otra-clave-99");
  await page.getByLabel("Confirmar contraseña").fill("otra-clave-99");
  await page.getByRole("button", { name: "Cambiar contraseña" }).click();
  await expectToast(page, "Tu contraseña se cambio correctamente, ya puedes iniciar sesion con tu correo y nueva clave.");
  await signIn(page, email, "otra-clave-99");
  await expect(page).toHaveURL(/\/dashboard$/);
  // The link works once.
  await page.context().clearCookies();
  await page.goto(link!);
  await page.getByLabel("Correo").fill(email);
  await page.getByLabel("Nueva contraseña").fill("tercera-clave");
  await page.getByLabel("Confirmar contraseña").fill("tercera-clave");
  await page.getByRole("button", { name: "Cambiar contraseña" }).click();
  await expect(page.getByRole("alert")).toHaveText("No se logro cambiar tu contraseña.");
});

test("a newer sign-in closes the older session with the message", async ({ browser }, info) => {
  const email = account("takeover", projectOf(info));
  const first = await browser.newPage();
  await signIn(first, email);
  await expect(first).toHaveURL(/\/dashboard$/);
  const second = await (await browser.newContext({ javaScriptEnabled: info.project.use.javaScriptEnabled })).newPage();
  await signIn(second, email);
  await expect(second).toHaveURL(/\/dashboard$/);
  await first.goto("/companies");
  await expect(first).toHaveURL(/\/login$/);
  await expectToast(first, "Tu sesión se cerró porque otro usuario inició sesión con la misma cuenta.");
  await second.goto("/companies");
  await expect(second).toHaveURL(/\/companies$/);
});

test("plan 2 (reception only) reaches only its screens", async ({ page }, info) => {
  await signIn(page, account("plan2", projectOf(info)));
  await expect(page).toHaveURL(/\/dashboard$/);
  const nav = page.getByRole("navigation", { name: "Principal" });
  await expect(nav.getByRole("link", { name: "Documentos recibidos" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Clientes" })).toHaveCount(0);
  await page.goto("/clients");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/report-expenses");
  await expect(page).toHaveURL(/\/report-expenses$/);
});

test("an inactive company limits a non-admin user to dashboard and companies", async ({ page }, info) => {
  await signIn(page, account("inactive", projectOf(info)));
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Compañía inactiva")).toBeVisible();
  await page.goto("/invoices");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/companies");
  await expect(page).toHaveURL(/\/companies$/);
});

test("switching company from the header", async ({ page }, info) => {
  const p = projectOf(info);
  await signIn(page, account("staff", p));
  await page.getByLabel("Compañía").selectOption({ label: `Segunda Empresa ${p} S.A.` });
  await page.getByRole("button", { name: "Cambiar" }).click();
  await expectToast(page, `La compañia Segunda Empresa ${p} S.A. esta activa`);
  await expect(page.getByLabel("Compañía")).toHaveValue(/\d+/);
  await expect(page.locator("#company-switch option:checked")).toHaveText(`Segunda Empresa ${p} S.A.`);
});

test("unknown paths show the 404 page; / goes to the dashboard; logout", async ({ page }, info) => {
  const res = await page.goto("/no/existe");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Página no encontrada" })).toBeVisible();
  await signIn(page, account("staff", projectOf(info)));
  await page.goto("/");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
});

test("/login ships no framework: only its small form-check script (decision 166)", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
  });
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Entrar" })).toBeVisible();
  // Without JavaScript nothing is fetched; with it, the one script of the sign-in and password pages.
  if (test.info().project.use.javaScriptEnabled) {
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^\/assets\/auth-checks-[\w-]+\.js$/);
  } else expect(scripts).toEqual([]);
});

test("the menu's links: with JavaScript a click changes page without reloading it, the current page's replaces its history entry; without, ordinary links (decision 149)", async ({ page }, info) => {
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  const documents: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "document") documents.push(new URL(r.url()).pathname);
  });
  const nav = page.getByRole("navigation", { name: "Principal" });
  await nav.getByRole("link", { name: "Clientes", exact: true }).click();
  await expect(page).toHaveURL(/\/clients$/);
  await expect(page.locator("main h1").first()).toHaveText("Clientes");
  await expect(nav.getByRole("link", { name: "Clientes", exact: true })).toHaveAttribute("aria-current", "page");
  if (info.project.use.javaScriptEnabled) {
    // The page shown, clicked again: its history entry is replaced, so "back" is the dashboard.
    await nav.getByRole("link", { name: "Clientes", exact: true }).click();
    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(documents).toEqual([]);
  } else expect(documents).toEqual(["/clients"]);
});

test("a list's links (AppLink): with JavaScript followed without reloading the page; without, ordinary links (decision 202)", async ({ page }, info) => {
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await page.goto("/invoices");
  const documents: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "document") documents.push(new URL(r.url()).pathname);
  });
  const newInvoice = page.locator("main [data-new-document]");
  await expect(newInvoice).toHaveAttribute("data-discover", "true");
  await newInvoice.click();
  await expect(page).toHaveURL(/\/new-invoice$/);
  await expect(page.locator("main form").first()).toBeVisible();
  expect(documents).toEqual(info.project.use.javaScriptEnabled ? [] : ["/new-invoice"]);
});
