// Client and provider use-cases (spec part 1 §2.3 Clients, New/edit client, Account statement,
// Client detail, Providers; §4; §5; §8): the form round-trip (save, location refresh, activity
// lookup, contact rows without JavaScript), activate/deactivate, delete, account statement e-mail,
// and the activity catalogue import. Every function is scoped to one company.
import { and, eq } from "drizzle-orm";
import { data } from "react-router";
import type { Db, DbOrTx } from "../../db/client.ts";
import { countActivities, upsertActivities } from "../../db/queries/activities.ts";
import { packChoices } from "../domain/choices.ts";
import { clientById, clientFormLists, clientHasDocuments, contactsOf, pendingInvoices } from "../../db/queries/clients.ts";
import { clientContacts, clients, companies } from "../../db/schema/index.ts";
import {
  ACTIVITY_IMPORT_MESSAGES,
  activityLookupCheck,
  CLIENT_MESSAGES,
  clientFormObject,
  clientSchema,
  contactFields,
  emptyContact,
  HOME_COUNTRY,
  maxContacts,
  maxContactsMessage,
  parseActivityLine,
  readContacts,
  type ClientFormMode,
  type ClientInput,
  type ContactValues,
} from "../domain/client-schemas.ts";
import type { Activity } from "../domain/company-schemas.ts";
import { statementEmail } from "../domain/account-statement.ts";
import { isLegacyActivityCode, parseActivityOptions } from "../domain/activity-codes.ts";
import { formValues, parseForm, type FieldErrors } from "../domain/forms.ts";
import { lookupActivities } from "./activity-lookup.server.ts";
import { sendCompanyMail } from "./company-mail.server.ts";
import { documentTemplate } from "./document-email.server.ts";

/** The client of the company or a 404 (another company's client does not exist for this one). */
export async function requireClient(db: DbOrTx, companyId: number, clientId: number) {
  const client = await clientById(db, { companyId, clientId });
  if (!client) throw data("No encontrado", { status: 404 });
  return client;
}

export const NEW_CLIENT_DEFAULTS: Record<string, string> = {
  identification_type: "1",
  country: String(HOME_COUNTRY),
  province: "1",
  canton: "1",
  district: "1",
  contact_count: "1",
};

/** Activities carried between re-renders in a hidden field, parsed defensively. */
export const activityOptions = parseActivityOptions;

/** Form values of a stored client. */
export async function clientValues(db: DbOrTx, companyId: number, clientId: number) {
  const c = await requireClient(db, companyId, clientId);
  const contacts = await contactsOf(db, { companyId, clientId });
  const rows: ContactValues[] = contacts.map((k) => ({ name: k.name ?? "", email: k.email ?? "", workstation: k.workstation ?? "", send_copy: k.sendCopyEmailInvoices ? "on" : "" }));
  const values: Record<string, string> = {
    name: c.name,
    comercial_name: c.comercialName ?? "",
    identification_type: String(c.identificationTypeId),
    identification: c.identification,
    email: c.email,
    phone: c.phone,
    address: c.address,
    country: String(c.countryId),
    province: String(c.provinceNumber ?? 1),
    canton: String(c.cantonNumber ?? 1),
    district: String(c.districtNumber ?? 1),
    barrio: c.barrio ?? "",
    economic_activity_code: c.economicActivityCode ?? "",
    economic_activity_name: c.economicActivityName ?? "",
    ...contactFields(rows.length ? rows : [emptyContact()]),
  };
  // An old-catalogue code is shown in the typed field, not as the only choice: the user types or looks up the new one.
  const activities: Activity[] = c.economicActivityCode && !isLegacyActivityCode(c.economicActivityCode) ? [{ code: c.economicActivityCode, description: c.economicActivityName ?? "", type: "" }] : [];
  return { client: c, values, activities };
}

/**
 * The lists for the submitted location with the cascade applied on the server (spec part 1 §4
 * Client location cascade): a canton not of the province falls to the first, likewise district and barrio.
 */
export async function clientLists(db: DbOrTx, values: Record<string, string | undefined>) {
  const province = Number(values.province) || 1;
  let canton = Number(values.canton) || 1;
  let district = Number(values.district) || 1;
  let lists = await clientFormLists(db, { province, canton, district });
  if (lists.cantons.length && !lists.cantons.some((c) => c.number === canton)) {
    canton = lists.cantons[0].number;
    lists = await clientFormLists(db, { province, canton, district });
  }
  if (lists.districts.length && !lists.districts.some((d) => d.number === district)) {
    district = lists.districts[0].number;
    lists = await clientFormLists(db, { province, canton, district });
  }
  let barrio = values.barrio ?? "";
  if (!lists.barrios.some((b) => b.name === barrio)) barrio = lists.barrios[0]?.name ?? "";
  // Every list travels packed in the page's data (docs/decisions/155): a place's id is its number; a
  // barrio is chosen and stored by its name, so its id is only its position.
  const places = (rows: { number: number; name: string }[]) => packChoices(rows.map((r) => ({ id: r.number, name: r.name })));
  const packed = {
    identificationTypes: packChoices(lists.identificationTypes.map((t) => ({ id: t.id, name: `${t.code} ${t.name}` }))),
    countries: packChoices(lists.countries),
    provinces: places(lists.provinces),
    cantons: places(lists.cantons),
    districts: places(lists.districts),
    barrios: packChoices(lists.barrios.map((b, i) => ({ id: i + 1, name: b.name }))),
  };
  return { lists: packed, location: { province: String(province), canton: String(canton), district: String(district), barrio } };
}

export type ClientLists = Awaited<ReturnType<typeof clientLists>>["lists"];

export interface ClientFormState {
  mode: ClientFormMode;
  id: number | null;
  provider: boolean;
  values: Record<string, string>;
  contacts: ContactValues[];
  activities: Activity[];
  lists: ClientLists;
  errors: FieldErrors;
  message: string | null;
  /** The stored client's activity code: an old-catalogue code it already has is accepted unchanged (decision 132). */
  storedActivityCode: string | null;
}

/** The state of a fresh or stored client's form. */
export async function clientFormState(db: DbOrTx, opts: { companyId: number; mode: ClientFormMode; provider: boolean; clientId?: number | null }): Promise<ClientFormState> {
  let values = { ...NEW_CLIENT_DEFAULTS };
  let activities: Activity[] = [];
  let provider = opts.provider;
  let storedActivityCode: string | null = null;
  if (opts.clientId) {
    const stored = await clientValues(db, opts.companyId, opts.clientId);
    values = stored.values;
    activities = stored.activities;
    provider = stored.client.provider;
    storedActivityCode = stored.client.economicActivityCode;
  }
  const { lists, location } = await clientLists(db, values);
  const merged = { ...values, ...location };
  return { mode: opts.mode, id: opts.clientId ?? null, provider, values: merged, contacts: readContacts(merged), activities, lists, errors: {}, message: null, storedActivityCode };
}

export type ClientFormOutcome = { kind: "view"; state: ClientFormState; status: number } | { kind: "saved"; id: number; created: boolean };

/**
 * One POST of the client form. Intents: save, refresh-location, lookup-activity, add-contact,
 * remove-contact-N. Everything typed comes back on every re-render.
 */
export async function handleClientForm(
  db: Db,
  opts: { companyId: number; mode: ClientFormMode; provider: boolean; clientId: number | null; form: FormData; lookupFetch?: typeof fetch },
): Promise<ClientFormOutcome> {
  let provider = opts.provider;
  let storedActivityCode: string | null = null;
  if (opts.clientId) {
    const stored = await requireClient(db, opts.companyId, opts.clientId);
    provider = stored.provider;
    storedActivityCode = stored.economicActivityCode;
  }
  const values = formValues(opts.form);
  const intent = String(values.intent ?? "save");
  delete values.intent;
  let activities = activityOptions(values.activity_options);
  let contacts = readContacts(values);
  let message: string | null = null;
  const errors: FieldErrors = {};
  const max = maxContacts(opts.mode);

  if (intent === "add-contact") {
    if (contacts.length >= max) errors.contacts = maxContactsMessage(opts.mode);
    else contacts = [...contacts, emptyContact()];
  } else if (intent.startsWith("remove-contact-")) {
    const i = Number(intent.slice("remove-contact-".length));
    if (contacts.length > 1 && Number.isInteger(i) && i >= 0 && i < contacts.length) contacts = contacts.filter((_, k) => k !== i);
  } else if (intent === "lookup-activity") {
    const problem = activityLookupCheck(values.identification_type, values.identification);
    if (problem) message = problem;
    else {
      const found = await lookupActivities(values.identification ?? "", { fetch: opts.lookupFetch });
      message = found.message;
      if (found.ok) {
        activities = found.activities;
        values.economic_activity_code = found.selected;
        if (found.name) values.found_company_name = found.name;
      }
    }
  }
  const chosen = activities.find((a) => a.code === values.economic_activity_code);
  if (chosen) values.economic_activity_name = chosen.description;
  Object.assign(values, contactFields(contacts));
  for (const k of Object.keys(values)) if (/^contact_\w+_\d+$/.test(k) && Number(k.split("_").pop()) >= contacts.length) delete values[k];

  const { lists, location } = await clientLists(db, values);
  const view = (errs: FieldErrors, status = 200): ClientFormOutcome => ({
    kind: "view",
    status,
    state: { mode: opts.mode, id: opts.clientId, provider, values: { ...values, ...(intent === "refresh-location" || !values.barrio ? location : {}) }, contacts, activities, lists, errors: errs, message, storedActivityCode },
  });
  if (intent !== "save") return view(errors, Object.keys(errors).length ? 400 : 200);

  const parsed = parseForm(clientSchema({ mode: opts.mode, provider, storedActivityCode }), clientFormObject(values));
  if (!parsed.ok) return view(parsed.errors, 400);
  const id = opts.clientId ? await updateClient(db, opts.companyId, opts.clientId, parsed.data, values) : await createClient(db, opts.companyId, parsed.data, { provider, foundCompanyName: values.found_company_name });
  return { kind: "saved", id, created: !opts.clientId };
}

function rowValues(input: ClientInput) {
  return {
    name: input.name,
    comercialName: input.comercial_name,
    identificationTypeId: input.identification_type,
    identification: input.identification,
    email: input.email,
    phone: input.phone,
    address: input.address,
    countryId: input.country,
    provinceNumber: input.province,
    cantonNumber: input.canton,
    districtNumber: input.district,
    barrio: input.barrio,
    economicActivityCode: input.economic_activity_code,
    economicActivityName: input.economic_activity_name,
  };
}

async function replaceContacts(tx: DbOrTx, companyId: number, clientId: number, contacts: ClientInput["contacts"]) {
  await tx.delete(clientContacts).where(and(eq(clientContacts.clientId, clientId), eq(clientContacts.companyId, companyId)));
  if (contacts.length)
    await tx.insert(clientContacts).values(
      contacts.map((c, position) => ({ companyId, clientId, name: c.name || null, email: c.email || null, workstation: c.workstation || null, sendCopyEmailInvoices: c.send_copy, position })),
    );
}

export async function createClient(db: Db, companyId: number, input: ClientInput, opts: { provider: boolean; foundCompanyName?: string }): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(clients)
      .values({ ...rowValues(input), companyId, provider: opts.provider, foundCompanyName: opts.foundCompanyName || null })
      .returning({ id: clients.id });
    await replaceContacts(tx, companyId, row.id, input.contacts);
    return row.id;
  });
}

export async function updateClient(db: Db, companyId: number, clientId: number, input: ClientInput, values: Record<string, string> = {}): Promise<number> {
  await requireClient(db, companyId, clientId);
  await db.transaction(async (tx) => {
    await tx
      .update(clients)
      .set({ ...rowValues(input), ...(values.found_company_name ? { foundCompanyName: values.found_company_name } : {}) })
      .where(and(eq(clients.id, clientId), eq(clients.companyId, companyId)));
    await replaceContacts(tx, companyId, clientId, input.contacts);
  });
  return clientId;
}

/** Saves only the economic activity (client detail's activity editing). */
export async function updateClientActivity(db: Db, companyId: number, clientId: number, activity: { code: string | null; name: string | null }) {
  await requireClient(db, companyId, clientId);
  await db
    .update(clients)
    .set({ economicActivityCode: activity.code, economicActivityName: activity.code ? activity.name : null })
    .where(and(eq(clients.id, clientId), eq(clients.companyId, companyId)));
}

/** Activates an inactive client or deactivates an active one; the generic client stays active. */
export async function toggleClient(db: Db, companyId: number, clientId: number): Promise<{ ok: boolean; active: boolean; message: string }> {
  const c = await requireClient(db, companyId, clientId);
  if (c.generic) return { ok: false, active: c.active, message: CLIENT_MESSAGES.genericLocked };
  await db
    .update(clients)
    .set({ active: !c.active })
    .where(and(eq(clients.id, clientId), eq(clients.companyId, companyId)));
  return { ok: true, active: !c.active, message: c.active ? CLIENT_MESSAGES.deactivated : CLIENT_MESSAGES.activated };
}

/**
 * Deletes a client without documents (spec part 1 §4). The row is removed with its contacts;
 * a client with documents, the generic client or one that represents students is refused.
 */
export async function deleteClient(db: Db, companyId: number, clientId: number, now: Date): Promise<{ ok: true } | { ok: false; message: string }> {
  const c = await requireClient(db, companyId, clientId);
  if (c.generic) return { ok: false, message: CLIENT_MESSAGES.genericLocked };
  return db.transaction(async (tx) => {
    if (await clientHasDocuments(tx, { companyId, clientId })) return { ok: false as const, message: CLIENT_MESSAGES.hasDocuments };
    // Students keep their representative: the client is soft-deleted (deleted_at) rather than removed.
    await tx
      .update(clients)
      .set({ deletedAt: now, active: false })
      .where(and(eq(clients.id, clientId), eq(clients.companyId, companyId)));
    return { ok: true as const };
  });
}

/** The account statement of a client: pending total (colones) and the invoices with something due. */
export async function accountStatement(db: DbOrTx, companyId: number, clientId: number) {
  const client = await requireClient(db, companyId, clientId);
  const { invoices, pendingTotal } = await pendingInvoices(db, { companyId, clientId });
  return { client: { id: client.id, name: client.name, email: client.email }, pendingTotal, invoices };
}

/**
 * Sends the account statement to the client's e-mail (copies to contacts flagged for copies): the
 * company's 'account_statement' template with the same rows the screen shows (statementEmail).
 */
export async function sendAccountStatement(db: Db, companyId: number, clientId: number, now: Date = new Date()): Promise<{ ok: true; message: string } | { ok: false; message: string }> {
  const st = await accountStatement(db, companyId, clientId);
  const [company] = await db.select({ name: companies.name, fantasyName: companies.fantasyName }).from(companies).where(eq(companies.id, companyId));
  const copies = (await contactsOf(db, { companyId, clientId })).filter((c) => c.sendCopyEmailInvoices && c.email).map((c) => c.email!);
  const { subject, text } = statementEmail({
    clientName: st.client.name,
    companyName: company?.fantasyName || company?.name || "",
    pendingTotal: st.pendingTotal,
    invoices: st.invoices,
    today: now,
    template: await documentTemplate(db, companyId, "account_statement"),
  });
  try {
    await sendCompanyMail(db, companyId, { to: [st.client.email, ...copies].join(", "), subject, text });
    return { ok: true, message: CLIENT_MESSAGES.statementSent };
  } catch (e) {
    return { ok: false, message: `No se pudo enviar el correo: ${e instanceof Error ? e.message : "error desconocido"}` };
  }
}

// ---- Activity catalogue import -------------------------------------------------------------------

export const ACTIVITY_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Imports the activity catalogue from a CSV file (code;description per line, an optional header),
 * read as a stream line by line. Every line is validated; the first bad line stops the import and
 * nothing is saved (one transaction).
 */
export async function importActivitiesCsv(db: Db, file: Blob): Promise<{ ok: true; count: number; total: number; message: string } | { ok: false; message: string }> {
  if (file.size === 0) return { ok: false, message: ACTIVITY_IMPORT_MESSAGES.empty };
  if (file.size > ACTIVITY_IMPORT_MAX_BYTES) return { ok: false, message: ACTIVITY_IMPORT_MESSAGES.tooBig };
  const seen = new Set<string>();
  const batch: { code: string; description: string }[] = [];
  let lineNo = 0;
  let count = 0;
  class Broken extends Error {}
  try {
    const result = await db.transaction(async (tx) => {
      const flush = async () => {
        await upsertActivities(tx, batch.splice(0));
      };
      const handle = async (raw: string) => {
        lineNo++;
        const line = lineNo === 1 ? raw.replace(/^\uFEFF/, "") : raw;
        if (!line.trim()) return;
        if (lineNo === 1 && /^\s*"?c[oó]digo/i.test(line)) return;
        const parsed = parseActivityLine(line);
        if (!parsed.ok) throw new Broken(ACTIVITY_IMPORT_MESSAGES.line(lineNo, parsed.why));
        if (seen.has(parsed.code)) throw new Broken(ACTIVITY_IMPORT_MESSAGES.line(lineNo, ACTIVITY_IMPORT_MESSAGES.duplicate(parsed.code)));
        seen.add(parsed.code);
        batch.push({ code: parsed.code, description: parsed.description });
        count++;
        if (batch.length >= 500) await flush();
      };
      const reader = file.stream().pipeThrough(new TextDecoderStream("utf-8", { fatal: true })).getReader();
      let rest = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        rest += value;
        let nl: number;
        while ((nl = rest.indexOf("\n")) >= 0) {
          await handle(rest.slice(0, nl).replace(/\r$/, ""));
          rest = rest.slice(nl + 1);
        }
      }
      if (rest) await handle(rest.replace(/\r$/, ""));
      if (count === 0) throw new Broken(ACTIVITY_IMPORT_MESSAGES.empty);
      await flush();
      return { count, total: await countActivities(tx) };
    });
    return { ok: true, ...result, message: ACTIVITY_IMPORT_MESSAGES.done(result.count) };
  } catch (e) {
    if (e instanceof Broken) return { ok: false, message: e.message };
    if (e instanceof TypeError) return { ok: false, message: ACTIVITY_IMPORT_MESSAGES.line(lineNo + 1, "el archivo no está en UTF-8") };
    throw e;
  }
}
