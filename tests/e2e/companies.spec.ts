import { account, DEMO_PASSWORD } from "./fixtures.ts";
import { expect, expectToast, projectOf, signIn, test } from "./helpers.ts";

test("an admin creates a company (activity looked up at Hacienda) and edits it", async ({ page }, info) => {
  const p = projectOf(info);
  const identification = p === "js" ? "3101900011" : "3101900012";
  const name = `Panadería La Espiga ${p} S.A.`;
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await page.goto("/companies");
  await page.getByRole("link", { name: "Nueva Compañia" }).click();
  await expect(page).toHaveURL(/\/new-company$/);
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  await page.getByLabel("Identificación", { exact: true }).fill(identification);
  await page.getByLabel("Email").fill("ventas@espiga.cr");
  await page.getByLabel("Teléfono").fill("24445566");
  await page.getByRole("button", { name: "Buscar actividad" }).click();
  await expect(page.locator("[data-activity-message]")).toHaveText("Actividad principal seleccionada automáticamente");
  // What was typed before the lookup is still there (without JavaScript the page was re-rendered).
  await expect(page.getByLabel("Nombre", { exact: true })).toHaveValue(name);
  await expect(page.getByLabel("Actividad económica")).toHaveValue("6201.0");
  await page.getByLabel("Otras señas").fill("Del parque central 200 metros al norte");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Compañia guardada");
  await expect(page).toHaveURL(/\/all-companies/);
  // Names are shown truncated at 25 characters: find the row by its identification.
  const row = page.locator("[data-companies] tr", { hasText: identification });
  await expect(row).toContainText(name.slice(0, 25));
  await expect(row).toBeVisible();
  await row.getByRole("link", { name: "Editar" }).click();
  await page.getByLabel("Teléfono").fill("24449999");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Compañia actualizada");
  await expect(page.locator("[data-companies] tr", { hasText: identification })).toContainText("24449999");
});

test("a company form with errors keeps what was typed", async ({ page }) => {
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await page.goto("/new-company");
  await page.getByLabel("Nombre", { exact: true }).fill("Sin Identificación S.A.");
  await page.getByLabel("Identificación", { exact: true }).evaluate((el: HTMLInputElement) => el.removeAttribute("pattern"));
  await page.getByLabel("Identificación", { exact: true }).fill("12345");
  await page.getByLabel("Email").fill("correo@ejemplo.cr");
  await page.getByLabel("Teléfono").fill("22223333");
  await page.getByLabel("Otras señas").fill("Costado sur de la iglesia");
  await page.locator('form[action="/new-company"]').evaluate((f: HTMLFormElement) => (f.noValidate = true));
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByRole("alert")).toHaveText("Revisa los datos marcados.");
  await expect(page.getByLabel("Nombre", { exact: true })).toHaveValue("Sin Identificación S.A.");
  await expect(page.getByLabel("Email")).toHaveValue("correo@ejemplo.cr");
});

test("an admin adds a user, assigns a company, sees it and unlinks it", async ({ page }, info) => {
  const p = projectOf(info);
  const email = `nuevo-${p}@e2e.colibri.cr`;
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await page.goto("/add-user");
  await page.getByLabel("Nombre").fill(`Carla Nueva ${p}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Contraseña").fill("clave-nueva-1");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page).toHaveURL(/\/users/);
  await expect(page.getByRole("cell", { name: email })).toBeVisible();

  // Editing opens the form as a dialog over the list.
  await page.locator("tr", { hasText: email }).getByRole("link", { name: "Editar" }).click();
  const dialog = page.getByRole("dialog", { name: "Editar Usuario" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Email")).toHaveValue(email);
  await dialog.getByLabel("Nombre").fill(`Carla Editada ${p}`);
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(page.locator("tr", { hasText: email })).toContainText(`Carla Editada ${p}`);

  await page.goto("/assign-company");
  await page.getByLabel("Usuario").selectOption({ label: `Carla Editada ${p} (${email})` });
  if (!info.project.use.javaScriptEnabled) await page.getByRole("button", { name: "Elegir" }).click();
  await page.getByLabel("Compañia").selectOption({ label: "Colibrí Demo S.A. (3101123456)" });
  await page.getByRole("button", { name: "Asignar" }).click();
  await expect(page).toHaveURL(/\/all-companies/);

  await page.goto("/users");
  await page.locator("tr", { hasText: email }).getByRole("link", { name: "Ver Compañias" }).click();
  const linked = page.locator("tr", { hasText: "Colibrí Demo S.A." });
  await expect(linked).toBeVisible();
  await linked.getByRole("button", { name: "Desvincular" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Sí, continuar" }).click();
  await expect(page.locator("tr", { hasText: "Colibrí Demo S.A." })).toHaveCount(0);

  // The new user can sign in only once linked to a company again: right now they have none.
  await page.getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, email, "clave-nueva-1");
  await expect(page.getByRole("alert")).toHaveText("Tu usuario no tiene compañías asignadas. Contacta al administrador.");
});

test("a non-admin does not see admin actions and cannot open admin screens", async ({ page }, info) => {
  await signIn(page, account("staff", projectOf(info)));
  await page.goto("/companies");
  await expect(page.getByRole("link", { name: "Nueva Compañia" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Config Hacienda" })).toHaveCount(0);
  const res = await page.goto("/users");
  expect(res?.status()).toBeGreaterThanOrEqual(400);
});

test("a company still on an old activity code is flagged, can save its other data, and takes the CIIU 4 code from Hacienda (issue 11 point 1)", async ({ page }, info) => {
  const p = projectOf(info);
  const identification = p === "js" ? "3101900501" : "3101900502";
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await page.goto("/all-companies");
  await page.locator("[data-companies] tr", { hasText: identification }).getByRole("link", { name: "Editar" }).click();
  const flag = page.locator("[data-activity-legacy]");
  await expect(flag).toHaveText(/^La actividad económica 620100 es del catálogo anterior a TRIBU-CR .*elija la nueva actividad \(por ejemplo 6201\.0\) con “Buscar actividad” y guarde la compañía/);
  // Its other data can still be saved (the old code is kept, and still flagged).
  await page.getByLabel("Teléfono").fill("24441111");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Compañia actualizada");
  await page.locator("[data-companies] tr", { hasText: identification }).getByRole("link", { name: "Editar" }).click();
  await expect(page.locator("[data-activity-legacy]")).toBeVisible();
  // Hacienda's lookup brings the CIIU 4 code; saving clears the flag.
  await page.getByRole("button", { name: "Buscar actividad" }).click();
  await expect(page.getByLabel("Actividad económica")).toHaveValue("6201.0");
  await expect(page.locator("[data-activity-legacy]")).toHaveCount(0);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Compañia actualizada");
  await page.locator("[data-companies] tr", { hasText: identification }).getByRole("link", { name: "Editar" }).click();
  await expect(page.getByLabel("Actividad económica")).toHaveValue("6201.0");
  await expect(page.locator("[data-activity-legacy]")).toHaveCount(0);
});
