// Journeys that exist only with JavaScript (the "js" project runs this file; the "nojs" project
// ignores *.js-only.spec.ts, playwright.config.ts). Decision 102: the live totals of the document form.
import { expect, test, type Request } from "@playwright/test";
import { DEMO_PASSWORD } from "./fixtures.ts";
import { fillLine, signIn } from "./helpers.ts";

test("with JavaScript, the live totals cost one request, and a save submitted while they are asked for lands on its new page's data", async ({ page }) => {
  await signIn(page, "demo@colibri.cr", DEMO_PASSWORD);
  await page.goto("/new-ticket");
  await fillLine(page, 1, { cabys: "8313100000000", description: "Venta de mostrador", quantity: "1", price: "2500", tax: "IVA 13%" });
  const isTotals = (body: string | null) => /intent(=|"\r\n\r\n)totals/.test(body ?? "");
  // One request per pause in typing: the totals answer reloads no page data (session, menu, form).
  const loads: string[] = [];
  const onRequest = (r: Request) => void (r.method() === "GET" && r.url().includes(".data") && loads.push(r.url()));
  page.on("request", onRequest);
  await Promise.all([page.waitForResponse((r) => isTotals(r.request().postData())), page.getByLabel("Precio (línea 1)").fill("2800")]);
  await page.waitForTimeout(500);
  expect(loads).toEqual([]);
  page.off("request", onRequest);

  // Hold the totals request until the save has been answered and its new page is being loaded, and
  // hold that load, so the totals answer arrives in the middle of the navigation (a slow link).
  let releaseTotals!: () => void;
  const totalsHeld = new Promise<void>((resolve) => (releaseTotals = resolve));
  let pageLoadHeld = false;
  await page.route(/\/new-ticket\.data/, async (route) => {
    const request = route.request();
    if (request.method() === "POST" && isTotals(request.postData())) {
      await totalsHeld;
      return route.continue();
    }
    if (request.method() === "GET" && request.url().includes("printed=") && !pageLoadHeld) {
      pageLoadHeld = true;
      releaseTotals();
      await new Promise((r) => setTimeout(r, 1500));
    }
    return route.continue();
  });
  const totalsAsked = page.waitForRequest((r) => r.method() === "POST" && isTotals(r.postData()));
  await page.getByLabel("Precio (línea 1)").fill("3000");
  await totalsAsked;
  await page.getByRole("button", { name: "Guardar e imprimir" }).click();
  await expect(page).toHaveURL(/\/new-ticket\?printed=\d+$/);
  await expect(page.locator("[data-printed-ticket]")).toContainText("guardado");
  await expect(page.getByLabel("Descripción (línea 1)")).toHaveValue("");
});
