// Clients and items through the integrator API (issue 15 item 3): create, update (a whole client or
// item, like saving its form) and find (by identification or code, or words of the name). The JSON
// is checked by the API schema, then by the screen's own schema (clientSchema of /new-client,
// itemSchema of /new-item) and saved by the same use-cases — same messages, same field paths.
import { and, asc, eq, gt, ilike, isNull, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { clients, items } from "../../../db/schema/index.ts";
import { clientById, contactsOf } from "../../../db/queries/clients.ts";
import { itemById } from "../../../db/queries/items.ts";
import type { ClientInput as ClientBody, ClientQuery, ItemInput as ItemBody, ItemQuery } from "../../domain/api/schemas.ts";
import { clientSchema, emptyContact } from "../../domain/client-schemas.ts";
import { parseForm } from "../../domain/forms.ts";
import { itemSchema } from "../../domain/item-schemas.ts";
import { createClient, updateClient } from "../clients.server.ts";
import { itemFormLists, saveItem, schemaOptions } from "../items.server.ts";
import { onceInTransaction } from "./idempotency.server.ts";
import { cursorOf, invalid, json, notFound, pageLimit, readCursor } from "./http.server.ts";
import type { ApiCall } from "./documents.server.ts";

const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));
const fieldErrors = (errors: Record<string, string>) => Object.entries(errors).map(([field, message]) => ({ field, message }));

const once = (call: ApiCall, work: Parameters<typeof onceInTransaction>[3]) => onceInTransaction(call.db, call.idempotency, call.now, work);

// ---- Clients ---------------------------------------------------------------------------------------

type ClientRow = typeof clients.$inferSelect;

async function clientBody(db: ApiCall["db"], companyId: number, c: ClientRow) {
  const contacts = await contactsOf(db, { companyId, clientId: c.id });
  return {
    id: c.id,
    name: c.name,
    comercial_name: c.comercialName,
    identification_type: c.identificationTypeId,
    identification: c.identification,
    email: c.email,
    phone: c.phone,
    address: c.address,
    country: c.countryId,
    province: c.provinceNumber,
    canton: c.cantonNumber,
    district: c.districtNumber,
    barrio: c.barrio,
    economic_activity_code: c.economicActivityCode,
    economic_activity_name: c.economicActivityName,
    provider: c.provider,
    generic: c.generic,
    active: c.active,
    contacts: contacts.map((k) => ({ name: k.name, email: k.email, workstation: k.workstation, send_copy: k.sendCopyEmailInvoices })),
  };
}

/** The JSON client as the standalone client form's values, checked by its schema. */
function parseClient(input: z.output<typeof ClientBody>, provider: boolean) {
  const contacts = (input.contacts?.length ? input.contacts : [{}]).map((c) => ({ ...emptyContact(), name: str(c.name), email: str(c.email), workstation: str(c.workstation), send_copy: c.send_copy ? "on" : "" }));
  const values = {
    name: str(input.name),
    comercial_name: str(input.comercial_name),
    identification_type: str(input.identification_type),
    identification: str(input.identification),
    email: str(input.email),
    phone: str(input.phone),
    address: str(input.address),
    country: str(input.country ?? 60),
    province: str(input.province),
    canton: str(input.canton),
    district: str(input.district),
    barrio: str(input.barrio),
    economic_activity_code: str(input.economic_activity_code),
    economic_activity_name: str(input.economic_activity_name),
    contacts,
  };
  const parsed = parseForm(clientSchema({ mode: "new", provider }), values);
  if (!parsed.ok) throw invalid(fieldErrors(parsed.errors));
  return parsed.data;
}

export async function createClientCall(call: ApiCall, input: z.output<typeof ClientBody>): Promise<Response> {
  const companyId = call.principal.companyId;
  const provider = !!input.provider;
  const parsed = parseClient(input, provider);
  return once(call, async (tx) => {
    const id = await createClient(tx, companyId, parsed, { provider });
    const row = await clientById(tx, { companyId, clientId: id });
    return { status: 201, body: await clientBody(tx, companyId, row!), headers: { Location: `/api/v1/clients/${id}` } };
  });
}

export async function updateClientCall(call: ApiCall, id: number, input: z.output<typeof ClientBody>): Promise<Response> {
  const companyId = call.principal.companyId;
  const current = await clientById(call.db, { companyId, clientId: id });
  if (!current || current.generic) throw notFound();
  const parsed = parseClient(input, current.provider);
  await updateClient(call.db, companyId, id, parsed);
  const row = await clientById(call.db, { companyId, clientId: id });
  return json(await clientBody(call.db, companyId, row!));
}

export async function getClientCall(call: ApiCall, id: number): Promise<Response> {
  const companyId = call.principal.companyId;
  const row = await clientById(call.db, { companyId, clientId: id });
  if (!row) throw notFound();
  return json(await clientBody(call.db, companyId, row));
}

const isIdCursor = (v: unknown): v is { i: number } => !!v && typeof v === "object" && Number.isInteger((v as { i: number }).i);
const likeOf = (s: string) => `%${s.trim().replace(/[\\%_]/g, (c) => "\\" + c)}%`;

/** GET /clients: by identification (exact), words of the name, provider or not; by id, a page at a time. */
export async function listClientsCall(call: ApiCall, q: z.output<typeof ClientQuery>): Promise<Response> {
  const companyId = call.principal.companyId;
  const limit = pageLimit(q.limit);
  const cursor = readCursor(q.cursor, isIdCursor);
  const where: SQL[] = [eq(clients.companyId, companyId), isNull(clients.deletedAt)];
  if (q.identification) where.push(eq(clients.identification, q.identification.trim()));
  if (q.search?.trim()) where.push(ilike(clients.name, likeOf(q.search)));
  if (q.provider) where.push(eq(clients.provider, q.provider === "true"));
  if (cursor) where.push(gt(clients.id, cursor.i));
  const rows = await call.db
    .select()
    .from(clients)
    .where(and(...where))
    .orderBy(asc(clients.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const data = [];
  for (const r of page) data.push(await clientBody(call.db, companyId, r));
  return json({ data, nextCursor: rows.length > limit ? cursorOf({ i: page[page.length - 1].id }) : null });
}

// ---- Items -----------------------------------------------------------------------------------------

type ItemRow = typeof items.$inferSelect;

const itemBody = (i: ItemRow) => ({
  id: i.id,
  code: i.code,
  cabys_code: i.cabysCode,
  name: i.name,
  description: i.description,
  category: i.categoryId,
  unit: i.unitCode,
  tax_type: i.taxTypeId,
  currency: i.currencyId,
  price: i.price,
});

async function parseItem(call: ApiCall, input: z.output<typeof ItemBody>) {
  const lists = await itemFormLists(call.db, call.principal.companyId);
  const values = {
    code: str(input.code),
    cabys_code: str(input.cabys_code),
    name: str(input.name),
    description: str(input.description),
    category: str(input.category),
    unit: str(input.unit),
    tax_type: str(input.tax_type),
    currency: str(input.currency),
    price: str(input.price),
  };
  const parsed = parseForm(itemSchema(schemaOptions(lists)), values);
  if (!parsed.ok) throw invalid(fieldErrors(parsed.errors));
  return parsed.data;
}

export async function createItemCall(call: ApiCall, input: z.output<typeof ItemBody>): Promise<Response> {
  const companyId = call.principal.companyId;
  const parsed = await parseItem(call, input);
  return once(call, async (tx) => {
    const saved = await saveItem(tx, { companyId, id: null }, parsed);
    if (!saved.ok) throw invalid(fieldErrors(saved.errors));
    const row = await itemById(tx, { companyId, id: saved.id });
    return { status: 201, body: itemBody(row!), headers: { Location: `/api/v1/items/${saved.id}` } };
  });
}

export async function updateItemCall(call: ApiCall, id: number, input: z.output<typeof ItemBody>): Promise<Response> {
  const companyId = call.principal.companyId;
  if (!(await itemById(call.db, { companyId, id }))) throw notFound();
  const parsed = await parseItem(call, input);
  const saved = await saveItem(call.db, { companyId, id }, parsed);
  if (!saved.ok) throw invalid(fieldErrors(saved.errors));
  return json(itemBody((await itemById(call.db, { companyId, id }))!));
}

export async function getItemCall(call: ApiCall, id: number): Promise<Response> {
  const row = await itemById(call.db, { companyId: call.principal.companyId, id });
  if (!row) throw notFound();
  return json(itemBody(row));
}

export async function listItemsCall(call: ApiCall, q: z.output<typeof ItemQuery>): Promise<Response> {
  const companyId = call.principal.companyId;
  const limit = pageLimit(q.limit);
  const cursor = readCursor(q.cursor, isIdCursor);
  const where: SQL[] = [eq(items.companyId, companyId), isNull(items.deletedAt)];
  if (q.code) where.push(sql`lower(${items.code}) = lower(${q.code.trim()})`);
  if (q.search?.trim()) where.push(ilike(items.name, likeOf(q.search)));
  if (cursor) where.push(gt(items.id, cursor.i));
  const rows = await call.db
    .select()
    .from(items)
    .where(and(...where))
    .orderBy(asc(items.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return json({ data: page.map(itemBody), nextCursor: rows.length > limit ? cursorOf({ i: page[page.length - 1].id }) : null });
}
