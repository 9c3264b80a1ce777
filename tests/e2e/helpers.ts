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

export async function expectToast(page: Page, text: string | RegExp) {
  await expect(page.locator("[data-toast]").filter({ hasText: text })).toBeVisible();
}

/** Waits for an e-mail to `to` captured by the in-process SMTP server and returns its raw text. */
export async function waitForMail(to: string, since: number, timeoutMs = 10_000): Promise<string> {
  const dir = process.env.E2E_MAIL_DIR!;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of fs.readdirSync(dir)) {
      const name = f.replace(/\.eml$/, "");
      const cut = name.indexOf("_");
      const stamp = name.slice(0, cut);
      const rcpt = name.slice(cut + 1);
      if (Number(stamp) >= since && decodeURIComponent(rcpt).includes(to)) return fs.readFileSync(path.join(dir, f), "utf8");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No e-mail to ${to} arrived within ${timeoutMs} ms`);
}

/** Decodes quoted-printable soft breaks and =XX escapes enough to find a link. */
export function mailText(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}
