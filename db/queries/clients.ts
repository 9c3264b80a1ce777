// Client and provider queries. Every function takes the company id and filters by it (tenancy).
import { and, asc, eq, inArray, isNull, notInArray, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { dec, money } from "../../app/domain/decimal.ts";
import { amountDue } from "../../app/domain/receivables.ts";
import type { DbOrTx } from "../client.ts";
import { barrios, cantons, clientContacts, clientCounts, clients, countries, districts, documents, identificationTypes, DUE_EXPRESSION, OWING_PREDICATE, provinces } from "../schema/index.ts";
import { builtOnce } from "./built-once.ts";
import { pageWindow, pageWithTotal, writtenLimit, type PageWindow } from "./paging.ts";

/** The expression of the GIN index clients_search_words_idx (db/schema/master.ts). */
const searchWords = sql`to_tsvector('simple'::regconfig, translate(lower(${clients.name} || ' ' || ${clients.identification} || ' ' || ${clients.email}), 'áéíóúüñàèìòù@.', 'aeiouunaeiou  '))`;

/** The words of a search, folded like the index (lower case, no accents, split at anything not a letter or digit). */
export function clientSearchWords(search: string): string[] {
  return search
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, 8);
}

export interface ClientListRow {
  id: number;
  name: string;
  email: string;
  identification: string;
  phone: string;
  active: boolean;
  generic: boolean;
  hasDocuments: boolean;
  /** What the client owes in colones (clientBalances' figure), when asked for with `balances`. */
  balance?: string;
}

/**
 * A page of clients (or providers) of a company, sorted by name. The search matches words of the
 * name, identification and e-mail that start with each searched word, ignoring case and accents
 * (GIN index clients_search_words_idx; docs/decisions/041; bench/clients.ts).
 */
export async function clientsPage(
  db: DbOrTx,
  opts: { companyId: number; provider: boolean; active?: boolean; search: string; page: number; perPage: number; balances?: boolean },
): Promise<{ rows: ClientListRow[]; total: number }> {
  // Without a search, every live client of the list is in client_counts (docs/decisions/200); its
  // number comes with each row of the page, built once (docs/decisions/203), and is read alone only
  // for a page past the end.
  if (!opts.search) {
    let liveTotal: number | undefined;
    const { rows, total } = await pageWithTotal({
      ...opts,
      rows: async (limit, offset) => {
        const rows = await plainClients(db, opts, pageWindow(limit, offset)).execute({ companyId: opts.companyId, limit, offset });
        if (rows.length) liveTotal = Number(rows[0].liveTotal ?? 0);
        return rows.map(({ liveTotal: _, ...row }) => row);
      },
      count: async () => liveTotal ?? liveClients(db, opts),
    });
    return { rows: rows.map((r) => ({ ...r, hasDocuments: !!r.hasDocuments })), total };
  }
  const words = clientSearchWords(opts.search);
  const query = words.map((w) => `${w}:*`).join(" & ");
  const where = and(
    clientsWhere(opts),
    // A search with no letters or digits matches nothing rather than everything.
    words.length ? sql`${searchWords} @@ to_tsquery('simple'::regconfig, ${query})` : sql`false`,
  );
  const { rows, total } = await pageWithTotal({
    ...opts,
    rows: (limit, offset) =>
      clientsQuery(db, { ...opts, live: false })
        .where(where)
        // Sort the (few) matches found through the word index: ordering by the bare column would
        // tempt the planner to walk the name index and test every row (seconds at 100k).
        .orderBy(sql`${clients.name} || ''`, asc(clients.id))
        .limit(writtenLimit(limit))
        .offset(offset),
    count: () => db.$count(clients, where),
  });
  return { rows: rows.map(({ liveTotal: _, ...r }) => ({ ...r, hasDocuments: !!r.hasDocuments })), total };
}

type ClientsOf = { companyId: number | Placeholder; provider: boolean; active?: boolean };

/** The live clients (or providers) of the company, all or only the active or inactive ones. */
const clientsWhere = (o: ClientsOf) =>
  and(eq(clients.companyId, o.companyId), eq(clients.provider, o.provider), isNull(clients.deletedAt), o.active === undefined ? undefined : eq(clients.active, o.active));

/** A clients list's columns: with each client's balance (decision 189) and, for a list without a search, its kept count. */
const clientsQuery = (db: DbOrTx, o: ClientsOf & { balances?: boolean; live: boolean }) =>
  db
    .select({
      id: clients.id,
      name: clients.name,
      email: clients.email,
      identification: clients.identification,
      phone: clients.phone,
      active: clients.active,
      generic: clients.generic,
      hasDocuments: sql<boolean>`exists (select 1 from ${documents} d where d.company_id = "clients"."company_id" and d.client_id = "clients"."id")`,
      // In the same query rather than a query after it (decision 189).
      ...(o.balances ? { balance: sql<string>`coalesce((select ${owedInColones} from ${documents} where ${owingWhere({ companyId: o.companyId, clients: sql`${documents.clientId} = "clients"."id"` })}), '0')` } : {}),
      liveTotal: o.live ? sql<string | null>`(select sum(${clientCounts.clients}) from ${clientCounts} where ${liveClientsWhere(o)})` : sql<null>`null`,
    })
    .from(clients)
    .$dynamic();

/** The page of a list without a search, built once for each list (provider, active, balances) and window (paging.ts), with the company as a parameter. */
function plainClients(db: DbOrTx, o: { provider: boolean; active?: boolean; balances?: boolean }, window: PageWindow) {
  const name = `clients_page_${o.provider ? "providers" : "clients"}_${o.active ?? "all"}_${o.balances ? "balances" : "plain"}${window.key}`;
  return builtOnce(db, name, () => {
    const list = { ...o, companyId: sql.placeholder("companyId"), live: true };
    return clientsQuery(db, list)
      .where(clientsWhere(list))
      .orderBy(asc(clients.name), asc(clients.id))
      .limit(window.limit)
      .offset(window.offset!)
      .prepare(name);
  });
}

/** The company's invoices with something still due (OWING_PREDICATE: payments, credit and debit notes), of these clients. */
async function owingInvoices(db: DbOrTx, opts: { companyId: number; clientIds: number[] }) {
  if (opts.clientIds.length === 0) return [];
  return db
    .select({
      id: documents.id,
      clientId: documents.clientId,
      consecutivo: documents.consecutivo,
      number: documents.number,
      issuedAt: documents.issuedAt,
      currencyId: documents.currencyId,
      exchangeRate: documents.exchangeRate,
      total: documents.totalComprobante,
      paymentAmount: documents.paymentAmount,
      creditNoteTotal: documents.creditNoteTotal,
      debitNoteTotal: documents.debitNoteTotal,
    })
    .from(documents)
    .where(owingWhere({ companyId: opts.companyId, clients: inArray(documents.clientId, opts.clientIds) }))
    .orderBy(asc(documents.issuedAt), asc(documents.id));
}

/** The company's live invoices with something due, of the clients `clients` selects (ids or a correlation). */
const owingWhere = (opts: { companyId: number | Placeholder; clients: SQL }) =>
  and(
    eq(documents.companyId, opts.companyId),
    opts.clients,
    // Written out, not a parameter: documents_owing_client_idx's condition, which a generic plan must see.
    sql`${documents.kind} = 'fe'`,
    notInArray(documents.status, ["rechazado", "anulado"]),
    isNull(documents.deletedAt),
    sql.raw(OWING_PREDICATE),
  );

/** The sum of what is due on invoices (DUE_EXPRESSION), dollar ones at their stored rate, rounded half-up to 5 decimals, as text. */
const owedInColones = sql<string>`round(sum((${sql.raw(DUE_EXPRESSION)}) * case when ${documents.currencyId} = 1 then ${documents.exchangeRate} else 1 end), 5)::text`;

/**
 * Pending receivables per client, in colones (dollar invoices converted at their stored exchange
 * rate): the sum of what is still due on each invoice (DUE_EXPRESSION, the SQL form of
 * app/domain/receivables.ts amountDue), rounded half-up to 5 decimals. With no documents it is 0. One
 * query for a whole page of clients, added up by the database: a client on credit can owe hundreds
 * of invoices (decision 156).
 */
export async function clientBalances(db: DbOrTx, opts: { companyId: number; clientIds: number[] }): Promise<Map<number, string>> {
  const sums = new Map<number, string>();
  if (opts.clientIds.length) {
    const rows = await db
      .select({ clientId: documents.clientId, balance: owedInColones })
      .from(documents)
      .where(owingWhere({ companyId: opts.companyId, clients: inArray(documents.clientId, opts.clientIds) }))
      .groupBy(documents.clientId);
    for (const r of rows) sums.set(r.clientId!, r.balance);
  }
  return new Map(opts.clientIds.map((id) => [id, sums.get(id) ?? "0"]));
}

/** A due amount in colones (dollar invoices at their stored exchange rate). */
const inColones = (due: string, d: { currencyId: number; exchangeRate: string }) => (d.currencyId === 1 ? dec(due).times(dec(d.exchangeRate)) : dec(due));

/**
 * The account statement of a client (spec part 1 §2.3, §3): its invoices with something due, oldest
 * first, each with its consecutive, issue date, what is due in its own currency, and the pending
 * total in colones.
 */
export async function pendingInvoices(db: DbOrTx, opts: { companyId: number; clientId: number }) {
  const rows = await owingInvoices(db, { companyId: opts.companyId, clientIds: [opts.clientId] });
  const invoices = rows.map((d) => ({ id: d.id, reference: d.consecutivo ?? String(d.number ?? d.id), issuedAt: d.issuedAt, pending: amountDue(d), currencyId: d.currencyId, exchangeRate: d.exchangeRate }));
  const total = invoices.reduce((a, i) => a.plus(inColones(i.pending, i)), dec("0"));
  return { invoices, pendingTotal: money(total) };
}

/** The client of the company (any state except deleted), or undefined. */
export async function clientById(db: DbOrTx, opts: { companyId: number; clientId: number }) {
  if (!Number.isInteger(opts.clientId) || opts.clientId <= 0) return undefined;
  const [row] = await db
    .select()
    .from(clients)
    .where(and(eq(clients.id, opts.clientId), eq(clients.companyId, opts.companyId), isNull(clients.deletedAt)));
  return row;
}

export async function contactsOf(db: DbOrTx, opts: { companyId: number; clientId: number }) {
  return db
    .select()
    .from(clientContacts)
    .where(and(eq(clientContacts.clientId, opts.clientId), eq(clientContacts.companyId, opts.companyId)))
    .orderBy(asc(clientContacts.position), asc(clientContacts.id));
}

export async function clientHasDocuments(db: DbOrTx, opts: { companyId: number; clientId: number }): Promise<boolean> {
  const [row] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.companyId, opts.companyId), eq(documents.clientId, opts.clientId)))
    .limit(1);
  return !!row;
}

/** The company's live clients (or providers), active or not or only those `active` says (client_counts). */
async function liveClients(db: DbOrTx, opts: { companyId: number; provider: boolean; active?: boolean }): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<string | null>`sum(${clientCounts.clients})` })
    .from(clientCounts)
    .where(liveClientsWhere(opts));
  return Number(n ?? 0);
}

const liveClientsWhere = (opts: ClientsOf) =>
  and(eq(clientCounts.companyId, opts.companyId), eq(clientCounts.provider, opts.provider), opts.active === undefined ? undefined : eq(clientCounts.active, opts.active));

/**
 * Of these client ids, the ones a document list links to client-detail (spec part 2: "client (link
 * to client-detail unless the client is deleted)"): the company's clients not deleted, and not the
 * generic client (a ticket's buyer, even an international one, has no detail page).
 */
export async function linkableClientIds(db: DbOrTx, { companyId, ids }: { companyId: number; ids: number[] }): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.companyId, companyId), inArray(clients.id, [...new Set(ids)]), isNull(clients.deletedAt), eq(clients.generic, false)));
  return new Set(rows.map((r) => r.id));
}

export async function genericClient(db: DbOrTx, companyId: number) {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.companyId, companyId), eq(clients.generic, true)))
    .orderBy(asc(clients.id))
    .limit(1);
  return row;
}

/** Lists of the client form for a location: identification types 01–04, countries, the cascade and barrios. */
export async function clientFormLists(db: DbOrTx, opts: { province: number; canton: number; district: number }) {
  const [types, countryRows, provinceRows, cantonRows, districtRows, barrioRows] = await Promise.all([
    db.select({ id: identificationTypes.id, code: identificationTypes.code, name: identificationTypes.name }).from(identificationTypes).where(inArray(identificationTypes.code, ["01", "02", "03", "04"])).orderBy(asc(identificationTypes.id)),
    db.select({ id: countries.id, name: countries.name }).from(countries).orderBy(asc(countries.name)),
    db.select({ number: provinces.number, name: provinces.name }).from(provinces).orderBy(asc(provinces.number)),
    db.select({ number: cantons.number, name: cantons.name }).from(cantons).where(eq(cantons.provinceNumber, opts.province)).orderBy(asc(cantons.number)),
    db
      .select({ number: districts.number, name: districts.name })
      .from(districts)
      .where(and(eq(districts.provinceNumber, opts.province), eq(districts.cantonNumber, opts.canton)))
      .orderBy(asc(districts.number)),
    barriosOf(db, opts),
  ]);
  return { identificationTypes: types, countries: countryRows, provinces: provinceRows, cantons: cantonRows, districts: districtRows, barrios: barrioRows };
}

export async function barriosOf(db: DbOrTx, opts: { province: number; canton: number; district: number }) {
  return db
    .select({ id: barrios.id, name: barrios.name })
    .from(barrios)
    .where(and(eq(barrios.provinceNumber, opts.province), eq(barrios.cantonNumber, opts.canton), eq(barrios.districtNumber, opts.district)))
    .orderBy(asc(barrios.id));
}

/** Non-provider, active clients of the company offered as student representatives. */
export async function representativeOptions(db: DbOrTx, opts: { companyId: number; includeId?: number | null }) {
  return db
    .select({ id: clients.id, name: clients.name, identification: clients.identification })
    .from(clients)
    .where(
      and(
        eq(clients.companyId, opts.companyId),
        eq(clients.provider, false),
        isNull(clients.deletedAt),
        opts.includeId ? or(eq(clients.active, true), eq(clients.id, opts.includeId)) : eq(clients.active, true),
      ),
    )
    .orderBy(asc(clients.name))
    .limit(1000);
}

/**
 * The clients (or providers) a document form offers when the company has too many to list them all
 * (docs/decisions/101): these ids and the generic client (`kept`), and up to `limit` more whose
 * words begin with the searched ones (`found`, by name). Active, not deleted, this company's only.
 */
export async function formClientChoices(db: DbOrTx, opts: { companyId: number; provider: boolean; ids: number[]; search: string; limit: number }) {
  const base = and(eq(clients.companyId, opts.companyId), eq(clients.provider, opts.provider), eq(clients.active, true), isNull(clients.deletedAt));
  const cols = { id: clients.id, name: clients.name, identification: clients.identification, generic: clients.generic };
  const words = clientSearchWords(opts.search);
  const [kept, found] = await Promise.all([
    db
      .select(cols)
      .from(clients)
      .where(and(base, opts.ids.length ? or(eq(clients.generic, true), inArray(clients.id, opts.ids)) : eq(clients.generic, true)))
      .orderBy(asc(clients.name)),
    words.length
      ? db
          .select(cols)
          .from(clients)
          .where(and(base, sql`${searchWords} @@ to_tsquery('simple'::regconfig, ${words.map((w) => `${w}:*`).join(" & ")})`))
          .orderBy(sql`${clients.name} || ''`, asc(clients.id))
          .limit(opts.limit)
      : [],
  ]);
  return { kept, found };
}
