import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test as base, type Page, type TestInfo } from "@playwright/test";

export { expect };
import { PASSWORD } from "./fixtures.ts";

export const projectOf = (info: TestInfo) => info.project.name;

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Correo").fill(email);
  await page.getByLabel("Contraseña").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.waitForLoadState();
  await hydrated(page);
}

/**
 * Waits until React has taken the page over: its router exists once `hydrateRoot` has run, and from then on
 * React hydrates at once whatever a click or a change reaches. Before that a click is an ordinary link or
 * form, and what is typed may be overwritten as the page hydrates, so a journey with JavaScript waits first.
 * A page without the framework (without JavaScript, /login, a file) returns at once.
 */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => !("__reactRouterContext" in window) || "__reactRouterDataRouter" in window);
}

/**
 * The journeys' `test`: Playwright's, with a page whose `goto` returns once the page is hydrated
 * (`hydrated`), so no journey types into or clicks a page React has not yet taken over.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (...args: Parameters<Page["goto"]>) => {
      const response = await goto(...args);
      await hydrated(page);
      return response;
    };
    await use(page);
  },
});

/** Makes `name` the current company from the header's switcher (the user's last choice is remembered across sign-ins). */
export async function useCompany(page: Page, name: string) {
  if ((await page.locator("#company-switch option:checked").textContent()) === name) return;
  await page.getByLabel("Compañía").selectOption({ label: name });
  await page.getByRole("button", { name: "Cambiar" }).click();
  await expectToast(page, `La compañia ${name} esta activa`);
}

/**
 * The page shows this toast. Toasts fade out after 1.5 s or 5 s (a CSS animation) but stay in the page, so a
 * slow machine that looks later still finds it: attached, not necessarily still visible.
 */
export async function expectToast(page: Page, text: string | RegExp) {
  await expect(page.locator("[data-toast]").filter({ hasText: text })).toBeAttached();
}

/** Waits for an e-mail to `to` (holding `contains`, when given) captured by the in-process SMTP server and returns its raw text. */
export async function waitForMail(to: string, since: number, timeoutMs = 10_000, contains?: string): Promise<string> {
  const dir = process.env.E2E_MAIL_DIR!;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of fs.readdirSync(dir)) {
      if (!f.endsWith(".eml")) continue; // a message still being written
      const name = f.replace(/\.eml$/, "");
      const cut = name.indexOf("_");
      const stamp = name.slice(0, cut);
      const rcpt = name.slice(cut + 1);
      if (Number(stamp) < since || !decodeURIComponent(rcpt).includes(to)) continue;
      const raw = fs.readFileSync(path.join(dir, f), "utf8");
      if (!contains || raw.includes(contains)) return raw;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No e-mail to ${to} arrived within ${timeoutMs} ms`);
}

/** Decodes quoted-printable soft breaks and =XX escapes enough to find a link. */
export function mailText(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}

/** On a document's detail page: waits until the jobs have sent it to the local Hacienda simulator and it shows 'aceptado'. */
export async function expectAccepted(page: Page) {
  await expect(async () => {
    await page.reload();
    await expect(page.locator("[data-status-ribbon]")).toHaveText("aceptado", { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
}

/** The clave shown on a document's detail page. */
export async function claveOf(page: Page): Promise<string> {
  return /\d{50}/.exec((await page.locator("[data-clave]").textContent()) ?? "")![0];
}

/**
 * On a document's detail page: waits until it is accepted (expectAccepted), then for the e-mail to
 * `to` with the PDF, the signed XML and Hacienda's answer, and for the page to say it was sent.
 */
export async function expectAcceptedAndMailed(page: Page, to: string, since: number) {
  await expectAccepted(page);
  // This document's own e-mail: its attachments are named after its clave.
  const clave = await claveOf(page);
  const mail = await waitForMail(to, since, 60_000, `${clave}.xml`);
  const files = [...mail.matchAll(/filename="?([^";\r\n]+)"?/gi)].map((m) => m[1]);
  expect(files.filter((f) => f.endsWith(".pdf"))).toHaveLength(1);
  expect(files.filter((f) => f === `${clave}.xml`)).toHaveLength(1);
  expect(files.filter((f) => f === `${clave}_respuesta.xml`)).toHaveLength(1);
  await expect(async () => {
    await page.reload();
    await expect(page.locator("[data-email-status]")).toContainText(`Enviado por correo a ${to}`, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * Clicks one of the detail page's download links, as a user does, and returns the file the browser
 * saved with its name. A download's response headers are not exposed, so the link is also requested
 * with the page's cookies for its content type.
 */
async function downloadFrom(page: Page, name: string) {
  const link = page.locator("[data-detail-actions]").getByRole("link", { name, exact: true });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const response = await page.request.get((await link.getAttribute("href"))!);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-disposition"]).toBe(`attachment; filename="${download.suggestedFilename()}"`);
  return { filename: download.suggestedFilename(), type: response.headers()["content-type"], body: fs.readFileSync((await download.path())!) };
}

/**
 * On an accepted document's detail page: its PDF, the XML sent to Hacienda and Hacienda's answer
 * download through the page's links, and the public link it shows opens, in a fresh browser without
 * cookies, the document with its QR code and no sign-in.
 */
export async function expectDocumentFiles(page: Page) {
  const clave = await claveOf(page);
  // The consecutive is part of the clave (after country, date and issuer).
  const consecutive = clave.slice(21, 41);
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(` ${consecutive}$`) })).toBeVisible();

  const pdf = await downloadFrom(page, "Descargar PDF");
  expect(pdf.type).toBe("application/pdf");
  expect(pdf.filename).toBe(`${clave}.pdf`);
  expect(pdf.body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const text = execFileSync("pdftotext", ["-", "-"], { input: pdf.body }).toString("utf8");
  expect(text).toContain(consecutive);
  expect(text.replace(/\s/g, "")).toContain(clave);

  const xml = await downloadFrom(page, "Descargar XML");
  expect(xml.type).toBe("application/xml; charset=utf-8");
  expect(xml.filename).toBe(`${clave}.xml`);
  expect(xml.body.toString("utf8")).toContain(`<Clave>${clave}</Clave>`);
  expect(xml.body.toString("utf8")).toContain("<ds:Signature");

  const answer = await downloadFrom(page, "XML de respuesta");
  expect(answer.type).toBe("application/xml; charset=utf-8");
  expect(answer.filename).toBe(`${clave}_respuesta.xml`);
  expect(answer.body.toString("utf8")).toMatch(/<MensajeHacienda[\s>]/);
  expect(answer.body.toString("utf8")).toContain(`<Clave>${clave}</Clave>`);

  // The public link is shown on the page (with and without JavaScript); anyone who has it sees the document.
  await expect(page.locator("[data-public-link]")).toBeVisible();
  const url = await page.locator("[data-public-link]").inputValue();
  expect(url).toMatch(/^http:\/\/[^/]+\/query-public\/[^/?#]+$/);
  const stranger = await page.context().browser()!.newContext({ javaScriptEnabled: base.info().project.use.javaScriptEnabled });
  try {
    const publicPage = await stranger.newPage();
    const response = (await publicPage.goto(url))!;
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("text/html; charset=utf-8");
    await expect(publicPage).toHaveURL(url);
    await expect(publicPage.locator("body")).toContainText(`Clave: ${clave}`);
    await expect(publicPage.locator("body")).toContainText(`Consecutivo: ${consecutive}`);
    await expect(publicPage.getByRole("img", { name: "Código QR del documento" })).toBeVisible();
    await expect(publicPage.getByLabel("Contraseña")).toHaveCount(0);
    // Nobody signed in on the way (the CSRF cookie every page sets is no session).
    expect((await stranger.cookies()).map((c) => c.name)).not.toContain("colibri_session");
  } finally {
    await stranger.close();
  }
}

/** Fills line `n` of a document form. */
export async function fillLine(page: Page, n: number, o: { cabys: string; description: string; quantity: string; price: string; tax: string }) {
  await page.getByLabel(`CABYS (línea ${n})`).fill(o.cabys);
  await page.getByLabel(`Descripción (línea ${n})`).fill(o.description);
  await page.getByLabel(`Cantidad (línea ${n})`).fill(o.quantity);
  await page.getByLabel(`Precio (línea ${n})`).fill(o.price);
  await page.getByLabel(`Impuesto (línea ${n})`).selectOption({ label: o.tax });
}

/** A client created on /clients (with one contact), to issue documents to in a journey. */
export async function newClient(page: Page, o: { name: string; identification: string; email: string; address?: string }) {
  await page.goto("/clients");
  await page.getByRole("link", { name: "Nuevo Cliente" }).click();
  const dialog = page.locator("[data-client-form]");
  await dialog.getByLabel("Nombre", { exact: true }).fill(o.name);
  await dialog.getByLabel("Identificación", { exact: true }).fill(o.identification);
  await dialog.getByLabel("Email", { exact: true }).fill(o.email);
  await dialog.getByLabel("Teléfono").fill("88887777");
  await dialog.getByLabel("Dirección").fill(o.address ?? "200 m sur de la escuela");
  await page.locator("#contact_name_0").fill("Contacto Uno");
  await page.locator("#contact_email_0").fill("uno@example.cr");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expectToast(page, "Cliente Guardado Correctamente");
}

