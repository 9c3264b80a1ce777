// Rows every company needs for its configuration (templates, terms, Hacienda access row, document
// counters), and the demo company's offline setup (a generated test key and the local sandbox).
// Both are idempotent: running them twice adds nothing.
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { companies, documentCounters, emailTemplates, haciendaConfigs, terms } from "../../db/schema/index.ts";
import { makeTestP12 } from "../hacienda/cert.ts";
import { loadP12 } from "../hacienda/p12.ts";
import { DEFAULT_SANDBOX_USER } from "../hacienda/sandbox/server.ts";
import { CONSECUTIVE_TYPES } from "../domain/config-schemas.ts";
import { encryptSecret } from "./secrets.server.ts";

export const DEFAULT_TEMPLATES = [
  {
    type: "invoice",
    name: "Factura",
    subject: "Factura electrónica {referencia} de {compania}",
    body: "Estimado(a) {cliente}:\n\nAdjuntamos la factura electrónica {referencia} por un monto de {monto}, con vencimiento el {vencimiento}.\n\nGracias por su preferencia,\n{compania}",
  },
  {
    type: "ticket",
    name: "Tiquete",
    subject: "Tiquete electrónico {referencia} de {compania}",
    body: "Estimado(a) {cliente}:\n\nAdjuntamos el tiquete electrónico {referencia} por un monto de {monto}.\n\nGracias por su compra,\n{compania}",
  },
  {
    type: "credit_note",
    name: "Nota de crédito",
    subject: "Nota de crédito electrónica {referencia} de {compania}",
    body: "Estimado(a) {cliente}:\n\nAdjuntamos la nota de crédito electrónica {referencia} por un monto de {monto}.\n\nSaludos,\n{compania}",
  },
  {
    type: "debit_note",
    name: "Nota de débito",
    subject: "Nota de débito electrónica {referencia} de {compania}",
    body: "Estimado(a) {cliente}:\n\nAdjuntamos la nota de débito electrónica {referencia} por un monto de {monto}.\n\nSaludos,\n{compania}",
  },
  {
    type: "quotation",
    name: "Cotización",
    subject: "Cotización {referencia} de {compania}",
    body: "Estimado(a) {cliente}:\n\nAdjuntamos la cotización {referencia} por un monto de {monto}, válida hasta el {vencimiento}.\n\nQuedamos atentos,\n{compania}",
  },
  {
    type: "purchase_invoice",
    name: "Factura de compra",
    subject: "Factura electrónica de compra {referencia} de {compania}",
    body: "Estimado(a) {cliente}:\n\nAdjuntamos la factura electrónica de compra {referencia} por un monto de {monto}.\n\nSaludos,\n{compania}",
  },
  {
    type: "payment_reminder",
    name: "Recordatorio de pago",
    subject: "Recordatorio de pago de la factura {referencia}",
    body: "Estimado(a) {cliente}:\n\nLe recordamos que la factura {referencia} por {monto} vence el {vencimiento}. Si ya realizó el pago, por favor ignore este mensaje.\n\nSaludos,\n{compania}",
  },
  {
    type: "account_statement",
    name: "Estado de cuenta",
    subject: "Estado de cuenta de {cliente} con {compania}",
    body: "Estimado(a) {cliente}:\n\nLe enviamos su estado de cuenta con {compania}. El saldo pendiente es de {monto}.\n\n{detalle}\n\nSaludos,\n{compania}",
  },
] as const;

export const DEFAULT_TERMS = [
  {
    name: "Términos generales",
    body: "Los precios incluyen los impuestos indicados. Las facturas a crédito deben cancelarse en el plazo acordado. Los reclamos se atienden dentro de los 8 días naturales siguientes a la entrega.",
  },
] as const;

/** Rows a new company needs for this area (idempotent). */
export async function setupConfigForCompany(db: DbOrTx, companyId: number): Promise<void> {
  const existingTemplates = new Set(
    (await db.select({ type: emailTemplates.type }).from(emailTemplates).where(eq(emailTemplates.companyId, companyId))).map((r) => r.type),
  );
  const missing = DEFAULT_TEMPLATES.filter((t) => !existingTemplates.has(t.type));
  if (missing.length > 0) await db.insert(emailTemplates).values(missing.map((t) => ({ ...t, companyId })));

  const [anyTerm] = await db.select({ id: terms.id }).from(terms).where(eq(terms.companyId, companyId)).limit(1);
  if (!anyTerm) await db.insert(terms).values(DEFAULT_TERMS.map((t) => ({ ...t, companyId })));

  await db.insert(haciendaConfigs).values({ companyId, environment: "staging" }).onConflictDoNothing();
  const [hc] = await db.select({ branch: haciendaConfigs.branch, terminal: haciendaConfigs.terminal }).from(haciendaConfigs).where(eq(haciendaConfigs.companyId, companyId));
  await db
    .insert(documentCounters)
    .values([...CONSECUTIVE_TYPES.map((t) => t.docType), "qt"].map((docType) => ({ companyId, branch: hc!.branch, terminal: hc!.terminal, docType, nextNumber: 1 })))
    .onConflictDoNothing();
}

/** The demo company: a generated test key and the local Hacienda sandbox (idempotent). */
export async function setupDemoCompany(db: DbOrTx, companyId: number, now: Date = new Date()): Promise<void> {
  await setupConfigForCompany(db, companyId);
  const [hc] = await db.select().from(haciendaConfigs).where(eq(haciendaConfigs.companyId, companyId));
  if (hc?.keyEnc) return;
  const [company] = await db.select({ name: companies.name, identification: companies.identification }).from(companies).where(eq(companies.id, companyId));
  const cedula = /^\d{10}$/.test(company?.identification ?? "") ? company!.identification : "3101123456";
  const pin = randomBytes(6).toString("hex");
  const p12 = makeTestP12({
    cedula,
    idType: "02",
    name: (company?.name ?? "COLIBRI DEMO S.A.").toUpperCase(),
    pin,
    notBefore: new Date(now.getTime() - 86_400_000),
    notAfter: new Date(now.getTime() + 2 * 365 * 86_400_000),
  });
  const key = loadP12(p12, pin, { now });
  await db
    .update(haciendaConfigs)
    .set({
      environment: "sandbox",
      username: DEFAULT_SANDBOX_USER.username,
      passwordEnc: encryptSecret(DEFAULT_SANDBOX_USER.password),
      pinEnc: encryptSecret(pin),
      keyEnc: encryptSecret(p12),
      keyFilename: "llave-demo.p12",
      keySubject: key.subject,
      keyCedula: key.cedula,
      keyNotBefore: key.notBefore,
      keyNotAfter: key.notAfter,
      updatedAt: now,
    })
    .where(and(eq(haciendaConfigs.companyId, companyId)));
}
