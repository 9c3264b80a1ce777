import fs from "node:fs";
import path from "node:path";
import { expect, type Page, type TestInfo } from "@playwright/test";
import { PASSWORD } from "./fixtures.ts";

export const projectOf = (info: TestInfo) => info.project.name;

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Correo").fill(email);
  await page.getByLabel("Contraseña").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
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

/**
 * On a document's detail page: waits until the jobs have sent it to the local Hacienda simulator and
 * it shows 'aceptado', then for the e-mail to `to` with the PDF, the signed XML and Hacienda's
 * answer, and for the page to say it was sent.
 */
export async function expectAcceptedAndMailed(page: Page, to: string, since: number) {
  await expect(async () => {
    await page.reload();
    await expect(page.locator("[data-status-ribbon]")).toHaveText("aceptado", { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  // This document's own e-mail: its attachments are named after its clave.
  const clave = /\d{50}/.exec((await page.locator("[data-clave]").textContent()) ?? "")![0];
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

