import { DEMO_PASSWORD } from "./fixtures.ts";
import { expect, expectAcceptedAndMailed, expectDocumentFiles, expectToast, newClient, projectOf, signIn, test } from "./helpers.ts";

test("create a recurring invoice, its first invoice is issued, accepted and e-mailed; pause it and resume it", async ({ page }, info) => {
  test.setTimeout(180_000);
  const p = projectOf(info);
  const name = `Cliente Recurrente ${p}`;
  const identification = p === "js" ? "109870691" : "109870692";
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await newClient(page, { name, identification, email: "recurrente@example.cr", address: "100 m norte de la iglesia" });

  await page.goto("/recurrings");
  await page.locator("[data-new-document]").click();
  await expect(page).toHaveURL(/\/recurring-new$/);
  await expect(page.getByRole("heading", { name: "Nueva factura recurrente" }).last()).toBeVisible();
  await expect(page.locator('[data-fact="Consecutivo"]')).toHaveText(/^\d+$/);

  await page.getByLabel("Cliente", { exact: true }).selectOption({ label: `${name} (${identification})` });
  await page.getByLabel("CABYS (línea 1)").fill("8313100000000");
  await page.getByLabel("Descripción (línea 1)").fill("Soporte técnico mensual");
  await page.getByLabel("Cantidad (línea 1)").fill("1");
  await page.getByLabel("Precio (línea 1)").fill("50000");
  await page.getByLabel("Impuesto (línea 1)").selectOption({ label: "IVA 13%" });

  // No cycle chosen: refused in Spanish, the typed line is kept.
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Indique el ciclo.")).toBeVisible();
  await expect(page.getByLabel("Descripción (línea 1)")).toHaveValue("Soporte técnico mensual");

  await page.getByLabel("Ciclo", { exact: true }).selectOption({ label: "Cada mes" });
  const since = Date.now();
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Factura recurrente creada con exito");
  await expect(page).toHaveURL(/\/recurrings$/);

  const row = page.locator("tr[data-recurring-id]", { hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("₡56.500,00");
  await expect(row.locator("[data-paused-icon]")).toHaveCount(0);

  // It starts today: the jobs issue this period's invoice right away; the simulator accepts it and
  // the client gets it by e-mail.
  await expect(async () => {
    await page.reload();
    await expect(row.locator("[data-last-sent]")).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/, { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  await page.goto("/invoices");
  await page.locator("tr", { hasText: name }).first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/detail\/invoice\/\d+$/);
  await expectAcceptedAndMailed(page, "recurrente@example.cr", since);
  await expectDocumentFiles(page);
  await page.goto("/recurrings");

  await row.getByRole("button", { name: "Pausar" }).click();
  await expectToast(page, "Factura recurrente pausada");
  await expect(row.locator("[data-paused-icon]")).toHaveCount(1);

  await row.getByRole("button", { name: "Reanudar" }).click();
  const dialog = row.getByRole("dialog", { name: "Reanudar factura recurrente" });
  await expect(dialog).toContainText("Antes de reanudar, revise las nuevas fechas de envío.");
  await dialog.getByRole("button", { name: "Reanudar" }).click();
  await expectToast(page, "Factura recurrente reanudada");
  await expect(row.locator("[data-paused-icon]")).toHaveCount(0);
  await expect(row.getByRole("button", { name: "Pausar" })).toBeVisible();
});
