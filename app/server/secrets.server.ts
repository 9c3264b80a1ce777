// Secrets at rest (keys, PINs, passwords): AES-256-GCM under a key derived from APP_SECRET.
// Also HMAC signing for small tokens (flash cookie, CSRF).
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "./env.server.ts";

function keyFor(purpose: string): Buffer {
  const secret = env().appSecret;
  if (!secret) throw new Error("APP_SECRET is not set (server/start.ts generates one into the data folder).");
  return createHash("sha256").update(`colibri:${purpose}:`).update(secret).digest();
}

export function encryptSecret(plain: string | Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor("encrypt"), iv);
  const data = Buffer.concat([cipher.update(typeof plain === "string" ? Buffer.from(plain, "utf8") : plain), cipher.final()]);
  return `v1.${iv.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}.${data.toString("base64url")}`;
}

export function decryptSecret(box: string): Buffer {
  const [v, iv, tag, data] = box.split(".");
  if (v !== "v1" || !iv || !tag || data === undefined) throw new Error("Unknown secret format");
  const decipher = createDecipheriv("aes-256-gcm", keyFor("encrypt"), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]);
}

export function hmac(purpose: string, value: string): string {
  return createHmac("sha256", keyFor(purpose)).update(value).digest("base64url");
}

export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}
