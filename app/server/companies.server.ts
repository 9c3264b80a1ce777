// Company use-cases (spec part 1 §2.3 Companies, §4, §5, §6): create, update, activate/deactivate,
// archive (docs/decisions/004-deleting-a-company.md). Only admins change companies, and only the
// companies they are linked to unless they are the super-admin.
import { and, asc, eq, isNull, ne } from "drizzle-orm";
import { data } from "react-router";
import type { Db, Tx } from "../../db/client.ts";
import { packChoices } from "../domain/choices.ts";
import { companyByIdentification, companyFormLists as queryFormLists, countDocuments, manageableCompany } from "../../db/queries/companies.ts";
import { companies, companyUsers, documents, generalConfigurations, sessions, users } from "../../db/schema/index.ts";
import { Readable } from "node:stream";
import archiver from "archiver";
import { setupNewCompany } from "./company-setup.server.ts";
import { loadDocumentView } from "./document-view.server.ts";
import { renderDocumentPdf } from "../pdf/invoice-pdf.server.tsx";
import { documentFileBase } from "../domain/document-view.ts";
import { API_CREDENTIAL_MESSAGES, checkLogo, COMPANY_MESSAGES, type CompanyInput } from "../domain/company-schemas.ts";
import type { FieldErrors } from "../domain/forms.ts";
import type { CurrentUser } from "./context.ts";
import { hashPassword } from "./password.server.ts";
import { apiUsernameConflict, apiUsernameTaken, closeCompanyApiSessions } from "./api/tokens.server.ts";

export type Actor = Pick<CurrentUser, "id" | "isAdmin" | "isSuperAdmin">;

export const ADMIN_ONLY = "Solo un administrador puede hacer esta acción.";

/** Throws 403 with a Spanish message unless the account is an admin. */
export function requireAdmin(user: CurrentUser | undefined): CurrentUser {
  if (!user?.isAdmin) throw data(ADMIN_ONLY, { status: 403 });
  return user;
}

/**
 * Throws 403 with `message` unless the account is the super-admin (SUPER_ADMIN_EMAIL): content every
 * tenant sees or uses (the advertisement, the CABYS and activity catalogues) is his alone
 * (docs/decisions/121-shared-content.md).
 */
export function requireSuperAdmin(user: CurrentUser | undefined, message: string): CurrentUser {
  if (!user?.isSuperAdmin) throw data(message, { status: 403 });
  return user;
}

/** The company the admin may change, or a 404 (a company of another tenant does not exist for them). */
export async function requireManageableCompany(db: Db, actor: Actor, companyId: number) {
  requireAdmin(actor as CurrentUser);
  const company = await manageableCompany(db, { userId: actor.id, isSuperAdmin: actor.isSuperAdmin, companyId });
  if (!company) throw data("No encontrado", { status: 404 });
  return company;
}

export interface LogoUpload {
  bytes: Buffer;
  mime: string;
}

/** The uploaded logo (one file; none when the input was left empty), checked by its bytes. */
export async function readLogo(form: FormData): Promise<{ ok: true; logo: LogoUpload | null } | { ok: false; message: string }> {
  const files = form.getAll("logo").filter((f): f is File => typeof f !== "string" && f.size > 0);
  if (files.length === 0) return { ok: true, logo: null };
  if (files.length > 1) return { ok: false, message: "Solo se permite un archivo de logo" };
  const bytes = Buffer.from(await files[0].arrayBuffer());
  const checked = checkLogo(bytes);
  return checked.ok ? { ok: true, logo: { bytes, mime: checked.mime } } : { ok: false, message: checked.message };
}

type SaveResult = { ok: true; id: number } | { ok: false; errors: FieldErrors };

/**
 * What another company already holds: its identification, or (plan 5) its API username in any case
 * ('Caja' and 'caja' are one username to the sign-in). Both fields are reported at once.
 */
async function takenFields(tx: Tx, input: CompanyInput, permission: number, companyId: number | null): Promise<FieldErrors | null> {
  const errors: FieldErrors = {};
  if (await companyByIdentification(tx, input.identification, companyId ?? undefined)) errors.identification = COMPANY_MESSAGES.duplicateIdentification;
  if (permission === 5 && input.username_api && (await apiUsernameTaken(tx, input.username_api, companyId))) errors.username_api = API_CREDENTIAL_MESSAGES.usernameTaken;
  return Object.keys(errors).length ? errors : null;
}

/**
 * Runs a save; when the unique index on API usernames refuses it (another company took the username
 * between the check and the write: two saves racing), the same field error as the check, nothing saved.
 */
async function refusingTakenApiUsername(save: () => Promise<SaveResult>): Promise<SaveResult> {
  try {
    return await save();
  } catch (error) {
    if (apiUsernameConflict(error)) return { ok: false, errors: { username_api: API_CREDENTIAL_MESSAGES.usernameTaken } };
    throw error;
  }
}

function companyValues(input: CompanyInput) {
  return {
    name: input.name,
    fantasyName: input.fantasy_name,
    identificationTypeId: input.identification_type,
    identification: input.identification,
    email: input.email,
    phone: input.phone,
    countryId: input.country,
    provinceNumber: input.province,
    cantonNumber: input.canton,
    districtNumber: input.district,
    otherSigns: input.other_signs,
    invoiceFormat: input.invoice_format,
    noHacienda: input.no_hacienda,
  };
}

function configValues(input: CompanyInput) {
  return { customQuotationName: input.custom_quotation_name, currencyId: input.currency, currencyEmitDoc: input.currency_emit_doc };
}

/** Creates a company, its general configuration, and links the creator to it. */
export async function createCompany(db: Db, actor: Actor, input: CompanyInput, logo: LogoUpload | null): Promise<SaveResult> {
  requireAdmin(actor as CurrentUser);
  const permission = input.permission ?? 1;
  return refusingTakenApiUsername(() => db.transaction(async (tx) => {
    const taken = await takenFields(tx, input, permission, null);
    if (taken) return { ok: false as const, errors: taken };
    const [row] = await tx
      .insert(companies)
      .values({
        ...companyValues(input),
        userId: actor.id,
        economicActivityCode: input.economic_activity_code,
        economicActivityName: input.economic_activity_name,
        permission,
        usernameApi: permission === 5 ? input.username_api : null,
        passwordApiHash: permission === 5 && input.password_api ? await hashPassword(input.password_api) : null,
        logo: logo?.bytes ?? null,
        logoMime: logo?.mime ?? null,
        // The database field is read-only on creation: every company starts in the shared database.
        database: null,
      })
      .returning({ id: companies.id });
    await tx.insert(generalConfigurations).values({ companyId: row.id, ...configValues(input) });
    await tx.insert(companyUsers).values({ companyId: row.id, userId: actor.id }).onConflictDoNothing();
    await setupNewCompany(tx, row.id);
    return { ok: true as const, id: row.id };
  }));
}

/**
 * Updates a company the admin may manage (a second logo replaces the first). A new API password (or
 * none, off plan 5) ends the sessions opened with the old one, as the API configuration screen does.
 */
export async function updateCompany(db: Db, actor: Actor, companyId: number, input: CompanyInput, logo: LogoUpload | null, now = new Date()): Promise<SaveResult> {
  const current = await requireManageableCompany(db, actor, companyId);
  const permission = input.permission ?? current.permission;
  return refusingTakenApiUsername(() => db.transaction(async (tx) => {
    const taken = await takenFields(tx, input, permission, companyId);
    if (taken) return { ok: false as const, errors: taken };
    // A new API password, none off plan 5, or undefined: the stored one is kept.
    const passwordApiHash = permission !== 5 ? null : input.password_api ? await hashPassword(input.password_api) : undefined;
    await tx
      .update(companies)
      .set({
        ...companyValues(input),
        ...(input.economic_activity_code ? { economicActivityCode: input.economic_activity_code, economicActivityName: input.economic_activity_name } : {}),
        permission,
        usernameApi: permission === 5 ? input.username_api : null,
        ...(passwordApiHash !== undefined ? { passwordApiHash } : {}),
        ...(logo ? { logo: logo.bytes, logoMime: logo.mime } : {}),
        ...(actor.isSuperAdmin && input.database !== undefined ? { database: input.database } : {}),
      })
      .where(eq(companies.id, companyId));
    if (passwordApiHash !== undefined) await closeCompanyApiSessions(tx, companyId, now);
    await tx
      .insert(generalConfigurations)
      .values({ companyId, ...configValues(input) })
      .onConflictDoUpdate({ target: generalConfigurations.companyId, set: configValues(input) });
    return { ok: true as const, id: companyId };
  }));
}

/** Activates or deactivates a company; returns the new flag. */
export async function toggleCompany(db: Db, actor: Actor, companyId: number): Promise<{ active: boolean; message: string }> {
  const company = await requireManageableCompany(db, actor, companyId);
  const [row] = await db.update(companies).set({ active: !company.active }).where(eq(companies.id, companyId)).returning({ active: companies.active });
  return { active: row.active, message: row.active ? COMPANY_MESSAGES.activated : COMPANY_MESSAGES.deactivated };
}

/**
 * Archives a company (docs/decisions/004): `deleted_at` is set, its documents, configuration and
 * links are kept, it disappears from every list and switcher. Sessions working in it move to the
 * user's next company (or to none: that browser signs in again). The session's own company cannot
 * be deleted.
 */
export async function deleteCompany(
  db: Db,
  actor: Actor,
  companyId: number,
  opts: { sessionCompanyId: number | undefined; now: Date },
): Promise<{ ok: true; documentsKept: number } | { ok: false; message: string }> {
  await requireManageableCompany(db, actor, companyId);
  if (opts.sessionCompanyId === companyId) return { ok: false, message: COMPANY_MESSAGES.cannotDeleteCurrent };
  const documentsKept = await countDocuments(db, companyId);
  await db.transaction(async (tx) => {
    await tx.update(companies).set({ deletedAt: opts.now, active: false }).where(eq(companies.id, companyId));
    const open = await tx
      .select({ id: sessions.id, userId: sessions.userId })
      .from(sessions)
      .where(and(eq(sessions.companyId, companyId), eq(sessions.kind, "web"), isNull(sessions.closedAt)));
    for (const s of open) {
      const [next] = await tx
        .select({ id: companies.id })
        .from(companyUsers)
        .innerJoin(companies, eq(companies.id, companyUsers.companyId))
        .where(and(eq(companyUsers.userId, s.userId ?? 0), isNull(companies.deletedAt), ne(companies.id, companyId)))
        .orderBy(asc(companies.id))
        .limit(1);
      await tx.update(sessions).set({ companyId: next?.id ?? null }).where(eq(sessions.id, s.id));
    }
    await tx.update(users).set({ defaultCompanyId: null }).where(eq(users.defaultCompanyId, companyId));
  });
  return { ok: true, documentsKept };
}

/** "Download all XMLs and PDFs": nothing to download until documents store their files. */
/**
 * Every document of the company as a ZIP, streamed: per document its signed XML, Hacienda's answer
 * and the PDF rendered from the stored values, in a folder per kind. A toast when there is nothing.
 */
export async function downloadAllFiles(db: Db, actor: Actor, companyId: number): Promise<Response | { type: "info" | "warning"; text: string }> {
  const company = await manageableCompany(db, { userId: actor.id, isSuperAdmin: actor.isSuperAdmin, companyId });
  if (!company) throw data("No encontrado", { status: 404 });
  const ids = await db.select({ id: documents.id }).from(documents).where(eq(documents.companyId, companyId)).orderBy(asc(documents.id));
  if (ids.length === 0) return { type: "info", text: COMPANY_MESSAGES.noDocuments };
  const archive = archiver("zip", { zlib: { level: 6 } });
  void (async () => {
    for (const { id } of ids) {
      const [doc] = await db
        .select({ kind: documents.kind, clave: documents.clave, consecutivo: documents.consecutivo, signedXml: documents.signedXml, responseXml: documents.responseXml })
        .from(documents)
        .where(and(eq(documents.id, id), eq(documents.companyId, companyId)));
      const view = await loadDocumentView(db, { companyId, documentId: id });
      if (!doc || !view) continue;
      const base = `${doc.kind}/${documentFileBase(view)}`;
      if (doc.signedXml) archive.append(doc.signedXml, { name: `${base}.xml` });
      if (doc.responseXml) archive.append(doc.responseXml, { name: `${base}_respuesta.xml` });
      archive.append(await renderDocumentPdf(view), { name: `${base}.pdf` });
      // Pace the loop with the archive so a large company is never held in memory at once.
      await new Promise((resolve) => archive.once("entry", resolve));
    }
    await archive.finalize();
  })().catch((error) => archive.abort() && console.error("[zip]", (error as Error).message));
  const fileName = `documentos-${company.identification ?? companyId}.zip`;
  return new Response(Readable.toWeb(archive) as ReadableStream, {
    headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${fileName}"`, "Cache-Control": "no-store" },
  });
}

/**
 * The lists of the company form for the submitted location, with the cascade rule applied on the
 * server too: a canton not of the province falls to the first canton, a district likewise.
 */
export async function companyFormLists(db: Db, values: Record<string, string>) {
  const province = Number(values.province) || 1;
  let canton = Number(values.canton) || 1;
  let lists = await queryFormLists(db, { province, canton });
  if (lists.cantons.length && !lists.cantons.some((c) => c.number === canton)) {
    canton = lists.cantons[0].number;
    lists = await queryFormLists(db, { province, canton });
  }
  let district = Number(values.district) || 1;
  if (lists.districts.length && !lists.districts.some((d) => d.number === district)) district = lists.districts[0].number;
  // The countries travel packed in the page's data (docs/decisions/155).
  return { lists: { ...lists, countries: packChoices(lists.countries) }, location: { province: String(province), canton: String(canton), district: String(district) } };
}
