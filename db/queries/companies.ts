import { and, asc, count, eq, exists, ilike, inArray, isNull, ne, notInArray, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../client.ts";
import { crCalendar } from "../../app/domain/format.ts";
import {
  cantons,
  companies,
  companyUsers,
  countries,
  currencies,
  districts,
  documentDays,
  documents,
  generalConfigurations,
  identificationTypes,
  provinces,
  users,
} from "../schema/index.ts";
import { type BuiltList, builtPageWithTotal, pageWithTotal, writtenLimit } from "./paging.ts";

/** The company if the user is linked to it (tenant check used by every company-scoped screen). */
export async function companyOfUser(db: DbOrTx, { userId, companyId }: { userId: number; companyId: number }) {
  const [row] = await db
    .select({ id: companies.id, name: companies.name, active: companies.active })
    .from(companies)
    .innerJoin(companyUsers, and(eq(companyUsers.companyId, companies.id), eq(companyUsers.userId, userId)))
    .where(and(eq(companies.id, companyId), isNull(companies.deletedAt)));
  return row;
}

/** The plan (permission) of a company, for the plan-5 write rule of routes that name a company. */
export async function companyPermission(db: DbOrTx, companyId: number): Promise<number | undefined> {
  const [row] = await db.select({ permission: companies.permission }).from(companies).where(eq(companies.id, companyId));
  return row?.permission;
}

// ---- Company lists and the companies an account may manage (spec part 1 §2.3 Companies) ----------

/** Midnight of 1 January in Costa Rica (UTC−6, no daylight saving) of the year of `now`. */
export function crYearStart(now: Date): Date {
  return new Date(Date.UTC(crCalendar(now).year, 0, 1, 6));
}

const creator = alias(users, "creator");

// The outer company written out in full: in a query without joins drizzle writes ${companies.id}
// as a bare "id", which inside the subquery is the document's own id (every company showed 1).
// The documents of the year, quotations aside, from the documents added up by day (decision 156):
// `since` is a Costa Rica midnight, so its day is where the count starts.
const docsThisYear = (since: Date | Placeholder) =>
  sql<number>`(select coalesce(sum(dd.documents), 0)::int from ${documentDays} dd where dd.company_id = "companies"."id" and dd.kind <> 'qt' and dd.day >= (${since instanceof Date ? since.toISOString() : since}::timestamptz at time zone 'America/Costa_Rica')::date)`;

/** The columns both company lists show (the user's companies and a user's companies in /users). */
const listColumns = (now: Date | Placeholder) => ({
  id: companies.id,
  name: companies.name,
  email: companies.email,
  identification: companies.identification,
  phone: companies.phone,
  documentsThisYear: docsThisYear(now instanceof Date ? crYearStart(now) : now),
});

export interface CompanyListRow {
  id: number;
  name: string;
  email: string;
  identification: string;
  phone: string;
  active: boolean;
  administrator: string | null;
  documentsThisYear: number;
}

/**
 * A page of companies: those linked to `userId`, or every company when `all` (the super-admin).
 * Archived companies never appear.
 */
export async function companiesPage(
  db: DbOrTx,
  opts: { userId: number; all: boolean; search: string; page: number; perPage: number; now: Date },
): Promise<{ rows: CompanyListRow[]; total: number }> {
  const term = opts.search ? `%${opts.search.replace(/[\\%_]/g, (c) => "\\" + c)}%` : null;
  if (!term) {
    // The page without a search, built once (built-once.ts).
    const { rows, total: n } = await builtPageWithTotal(db, `companies_${opts.all ? "all" : "linked"}`, opts, plainCompanies(db, opts.all), { userId: opts.userId, since: crYearStart(opts.now).toISOString() });
    return { rows: rows.map((r) => ({ ...r, documentsThisYear: Number(r.documentsThisYear) })), total: n };
  }
  const where = companiesWhere(db, opts.all ? null : opts.userId, or(ilike(companies.name, term), ilike(companies.email, term), ilike(companies.identification, term), ilike(companies.phone, term)));
  const { rows, total } = await pageWithTotal({
    ...opts,
    rows: (limit, offset) => companiesQuery(db, opts.now, where).limit(writtenLimit(limit)).offset(offset),
    count: () => db.$count(companies, where),
  });
  return { rows: rows.map((r) => ({ ...r, documentsThisYear: Number(r.documentsThisYear) })), total };
}

/** Live companies: every one, or those linked to `userId`; and what a search asks. */
const companiesWhere = (db: DbOrTx, userId: number | Placeholder | null, search?: SQL) =>
  and(
    isNull(companies.deletedAt),
    userId === null ? undefined : inArray(companies.id, db.select({ id: companyUsers.companyId }).from(companyUsers).where(eq(companyUsers.userId, userId))),
    search,
  );

const companiesQuery = (db: DbOrTx, now: Date | Placeholder, where: SQL | undefined) =>
  db
    .select({ ...listColumns(now), active: companies.active, administrator: creator.name })
    .from(companies)
    .leftJoin(creator, eq(creator.id, companies.userId))
    .where(where)
    .orderBy(asc(companies.name), asc(companies.id))
    .$dynamic();

/** The companies page without a search and its count, with the user and the year's start as parameters. */
function plainCompanies(db: DbOrTx, all: boolean): BuiltList<Awaited<ReturnType<typeof companiesQuery>>[number]> {
  const where = () => companiesWhere(db, all ? null : sql.placeholder("userId"));
  return {
    page: (w) => companiesQuery(db, sql.placeholder("since"), where()).limit(w.limit).offset(w.offset!).prepare("companies_page"),
    total: () => db.select({ n: count() }).from(companies).where(where()).prepare("companies_count"),
  };
}

/** The company if the account may manage it: linked to it, or the super-admin. Never archived ones. */
export async function manageableCompany(db: DbOrTx, opts: { userId: number; isSuperAdmin: boolean; companyId: number }) {
  if (!Number.isInteger(opts.companyId) || opts.companyId <= 0) return undefined;
  const [row] = await db
    .select()
    .from(companies)
    .where(
      and(
        eq(companies.id, opts.companyId),
        isNull(companies.deletedAt),
        opts.isSuperAdmin
          ? undefined
          : exists(db.select({ one: sql`1` }).from(companyUsers).where(and(eq(companyUsers.companyId, companies.id), eq(companyUsers.userId, opts.userId)))),
      ),
    );
  return row;
}

/** A company with its general configuration, for the edit form. */
export async function companyWithConfiguration(db: DbOrTx, companyId: number) {
  const [row] = await db
    .select({ company: companies, config: generalConfigurations })
    .from(companies)
    .leftJoin(generalConfigurations, eq(generalConfigurations.companyId, companies.id))
    .where(and(eq(companies.id, companyId), isNull(companies.deletedAt)));
  return row;
}

export async function countDocuments(db: DbOrTx, companyId: number): Promise<number> {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(documents).where(eq(documents.companyId, companyId));
  return Number(n);
}

/** Another non-archived company with this identification (identification is unique among them). */
export async function companyByIdentification(db: DbOrTx, identification: string, exceptId?: number) {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.identification, identification), isNull(companies.deletedAt), exceptId ? ne(companies.id, exceptId) : undefined));
  return row;
}

/** Companies the viewer may hand out (linked to the viewer, or all for the super-admin) not yet linked to `userId`. */
export async function assignableCompanies(db: DbOrTx, opts: { viewerId: number; isSuperAdmin: boolean; userId: number }) {
  return db
    .select({ id: companies.id, name: companies.name, identification: companies.identification })
    .from(companies)
    .where(
      and(
        isNull(companies.deletedAt),
        opts.isSuperAdmin ? undefined : inArray(companies.id, db.select({ id: companyUsers.companyId }).from(companyUsers).where(eq(companyUsers.userId, opts.viewerId))),
        notInArray(companies.id, db.select({ id: companyUsers.companyId }).from(companyUsers).where(eq(companyUsers.userId, opts.userId))),
      ),
    )
    .orderBy(asc(companies.name))
    .limit(500);
}

/**
 * Companies of a user, limited to those the viewer may see (the viewer's own companies, or all for
 * the super-admin), so a user's other tenants are never revealed.
 */
export async function companiesOfUserPage(
  db: DbOrTx,
  opts: { userId: number; viewerId: number; isSuperAdmin: boolean; page: number; perPage: number; now: Date },
): Promise<{ rows: Omit<CompanyListRow, "administrator" | "active">[]; total: number }> {
  const where = and(
    isNull(companies.deletedAt),
    inArray(companies.id, db.select({ id: companyUsers.companyId }).from(companyUsers).where(eq(companyUsers.userId, opts.userId))),
    opts.isSuperAdmin ? undefined : inArray(companies.id, db.select({ id: companyUsers.companyId }).from(companyUsers).where(eq(companyUsers.userId, opts.viewerId))),
  );
  const { rows, total } = await pageWithTotal({
    ...opts,
    rows: (limit, offset) =>
      db
        .select(listColumns(opts.now))
        .from(companies)
        .where(where)
        .orderBy(asc(companies.name), asc(companies.id))
        .limit(writtenLimit(limit))
        .offset(offset),
    count: () => db.$count(companies, where),
  });
  return { rows: rows.map((r) => ({ ...r, documentsThisYear: Number(r.documentsThisYear) })), total };
}

/** Reference lists for the company form: identification types 01–04, countries, provinces, cantons, districts, currencies. */
export async function companyFormLists(db: DbOrTx, opts: { province: number; canton: number }) {
  const [types, countryRows, provinceRows, cantonRows, districtRows, currencyRows] = await Promise.all([
    db.select({ id: identificationTypes.id, code: identificationTypes.code, name: identificationTypes.name }).from(identificationTypes).where(eq(identificationTypes.forCompanies, true)).orderBy(asc(identificationTypes.id)),
    db.select({ id: countries.id, name: countries.name }).from(countries).orderBy(asc(countries.name)),
    db.select({ number: provinces.number, name: provinces.name }).from(provinces).orderBy(asc(provinces.number)),
    db.select({ number: cantons.number, name: cantons.name }).from(cantons).where(eq(cantons.provinceNumber, opts.province)).orderBy(asc(cantons.number)),
    db
      .select({ number: districts.number, name: districts.name })
      .from(districts)
      .where(and(eq(districts.provinceNumber, opts.province), eq(districts.cantonNumber, opts.canton)))
      .orderBy(asc(districts.number)),
    db.select({ id: currencies.id, name: currencies.name, symbol: currencies.symbol }).from(currencies).where(inArray(currencies.id, [1, 2])).orderBy(asc(currencies.id)),
  ]);
  return { identificationTypes: types.filter((t) => ["01", "02", "03", "04"].includes(t.code)), countries: countryRows, provinces: provinceRows, cantons: cantonRows, districts: districtRows, currencies: currencyRows };
}
