// The reset form (/password/email) answers the same whether or not the account exists and whether or
// not the mail could be sent (issue 10 point 8): the same redirect, the same toast. The link is
// e-mailed after the answer (resetMailsSettled waits for it here).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passwordResetTokens } from "../../db/schema/index.ts";
import * as passwordEmail from "../../app/routes/auth/password-email.tsx";
import { RESET_SENT, resetMailsSettled } from "../../app/server/auth.server.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { startSmtpCapture, type SmtpCapture } from "../fixtures/smtp.ts";
import { anonymous, call, createCompany, createUser, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: SmtpCapture;
let refuse = false;
beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpCapture({ refuse: () => refuse });
  process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
});
afterAll(async () => {
  await resetMailsSettled();
  delete process.env.SMTP_URL;
  await smtp?.close();
  await database?.drop();
});

function toastsOf(b: Browser) {
  const flash = b.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
}

let n = 0;
async function ask(email: string) {
  const b = anonymous();
  const res = await call(b, passwordEmail.action, { path: "/password/email", form: { email }, headers: { "x-colibri-client-ip": `192.0.2.${++n}` } });
  return { status: res.status, location: res.location, data: res.data ?? null, toasts: toastsOf(b) };
}

describe("the reset form's answer does not depend on the account or the mail server", () => {
  it("existing account (mail sent), unknown account, existing account with the mail server refusing: the same answer", async () => {
    const user = await createUser(database.db);
    await createCompany(database.db, { userIds: [user.id] });
    const sentTo = (to: string) => smtp.received.filter((m) => m.to.includes(to)).length;

    const existing = await ask(user.email);
    await resetMailsSettled();
    expect(sentTo(user.email)).toBe(1);

    const unknown = await ask(`nadie-${process.pid}@example.cr`);
    await resetMailsSettled();

    refuse = true;
    const failing = await ask(user.email);
    await resetMailsSettled();
    refuse = false;
    expect(sentTo(user.email)).toBe(1);

    const expected = { status: 302, location: "/login", data: null, toasts: [{ type: "success", text: RESET_SENT }] };
    expect(existing).toEqual(expected);
    expect(unknown).toEqual(expected);
    expect(failing).toEqual(expected);
    // The mailed link's token was stored (hashed) for the existing account only.
    expect(await database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id))).toHaveLength(2);
  });
});
