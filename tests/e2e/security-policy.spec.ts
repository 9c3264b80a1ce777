// The Content-Security-Policy (docs/decisions/113) breaks nothing: across the main screens, a
// document, its print page and its public page, with JavaScript on and off, the browser reports no
// policy violation (blocked script, style or frame); the pages keep working (the other journeys).
import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "./fixtures.ts";
import { expect, expectToast, fillLine, signIn, test } from "./helpers.ts";

/** Every policy violation the browser reports for this page, from now on. */
function violations(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply|frame|connect)/i.test(m.text())) seen.push(`${page.url()}: ${m.text()}`);
  });
  return seen;
}

test("no screen, document, print page or public page breaks the Content-Security-Policy", async ({ page, browser }, info) => {
  test.setTimeout(120_000);
  const seen = violations(page);
  await page.goto("/login");
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/companies");
  const companyId = /\/main-configurations\/(\d+)/.exec((await page.locator("tr", { hasText: "Colibrí Demo S.A." }).getByRole("link", { name: "Configuraciones" }).getAttribute("href")) ?? "")?.[1];
  expect(companyId).toBeTruthy();

  for (const path of ["/dashboard", "/companies", "/clients", "/clients?new=1", "/providers", "/items", "/invoices", "/tickets", "/quotations", "/recurrings", "/payments", "/users", `/config-hacienda/${companyId}`, `/main-configurations/${companyId}`, `/taxes/${companyId}`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    expect(response?.headers()["content-security-policy"], path).toMatch(/script-src 'self' 'nonce-/);
  }

  // A ticket to the generic client: the form (live totals with JavaScript), its detail, print and public pages.
  await page.goto("/new-ticket");
  await fillLine(page, 1, { cabys: "8313100000000", description: "Revisión de la política de seguridad", quantity: "1", price: "1000", tax: "IVA 13%" });
  if (info.project.use.javaScriptEnabled) await expect(page.getByTestId("document-total")).toHaveText("₡1.130,00");
  await page.getByRole("button", { name: "Guardar", exact: true }).click();
  await expectToast(page, "Tiquete guardado con exito");
  await expect(page).toHaveURL(/\/detail\/ticket\/\d+$/);
  const detail = new URL(page.url()).pathname;
  const print = await page.goto(`${detail}/print`);
  expect(print?.headers()["content-security-policy"]).toContain("frame-ancestors 'self'");
  await page.goto(detail);
  const publicUrl = await page.locator("[data-public-link]").inputValue();

  const stranger = await browser.newContext({ javaScriptEnabled: info.project.use.javaScriptEnabled });
  try {
    const publicPage = await stranger.newPage();
    const strangerSeen = violations(publicPage);
    const response = await publicPage.goto(publicUrl);
    expect(response?.status()).toBe(200);
    await expect(publicPage.locator("svg").first()).toBeVisible();
    expect(strangerSeen).toEqual([]);
  } finally {
    await stranger.close();
  }
  expect(seen).toEqual([]);
});
