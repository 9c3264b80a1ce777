// Journeys that exist only with JavaScript (the "js" project runs this file; the "nojs" project
// ignores *.js-only.spec.ts, playwright.config.ts). Decision 102: the live totals of the document form.
import type { Request } from "@playwright/test";
import { DEMO_PASSWORD } from "./fixtures.ts";
import { expect, fillLine, signIn, test } from "./helpers.ts";

test("with JavaScript, the live totals cost one request and never run alongside a save: a waiting request is dropped, one under way holds the save", async ({ page }) => {
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

  // A change typed just before the save: its totals request, still waiting for the pause, is dropped
  // (the save's answer is held 1 s, longer than the pause).
  const order: string[] = [];
  page.on("request", (r) => void (r.method() === "POST" && r.url().includes("/new-ticket") && order.push(isTotals(r.postData()) ? "totals" : "save")));
  page.on("response", (r) => void (r.request().method() === "POST" && isTotals(r.request().postData()) && order.push("totals answered")));
  await page.route(/\/new-ticket\.data/, async (route) => {
    if (route.request().method() === "POST" && !isTotals(route.request().postData())) await new Promise((r) => setTimeout(r, 1000));
    return route.continue();
  });
  // Typed and saved in one step inside the page, so a busy machine cannot let the pause pass between them.
  await page.getByLabel("Precio (línea 1)").evaluate((input: HTMLInputElement) => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, "2900");
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
    [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Guardar e imprimir")!.click();
  });
  await expect(page).toHaveURL(/\/new-ticket\?printed=\d+$/);
  await expect(page.locator("[data-printed-ticket]")).toContainText("guardado");
  await page.waitForTimeout(500);
  expect(order).toEqual(["save"]);
  await page.unrouteAll();

  // A save pressed while a totals request is under way (a slow link: its answer takes 1.5 s) waits
  // for the answer, then lands on its new page with that page's data: the saved ticket, a blank form.
  order.length = 0;
  await fillLine(page, 1, { cabys: "8313100000000", description: "Venta de mostrador", quantity: "1", price: "2500", tax: "IVA 13%" });
  await page.route(/\/new-ticket\.data/, async (route) => {
    if (route.request().method() === "POST" && isTotals(route.request().postData())) await new Promise((r) => setTimeout(r, 1500));
    return route.continue();
  });
  const totalsAsked = page.waitForRequest((r) => r.method() === "POST" && isTotals(r.postData()));
  await page.getByLabel("Precio (línea 1)").fill("3000");
  await totalsAsked;
  order.length = 0;
  order.push("totals");
  await page.getByRole("button", { name: "Guardar e imprimir" }).click();
  await expect(page).toHaveURL(/\/new-ticket\?printed=\d+$/);
  await expect(page.locator("[data-printed-ticket]")).toContainText("guardado");
  await expect(page.getByLabel("Descripción (línea 1)")).toHaveValue("");
  expect(order).toEqual(["totals", "totals answered", "save"]);
});
