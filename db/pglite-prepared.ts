// The embedded database's queries as named prepared statements, each sent in one call into PGlite
// (docs/decisions/196-pglite-prepared-statements.md).
//
// PGlite's own `query` runs every query through six calls into its WebAssembly backend — parse,
// describe the statement (for the parameter types), bind, describe the portal, execute, sync — and
// parses, analyses and plans the SQL text again each time. drizzle builds the same few hundred SQL
// texts over and over (the values travel as parameters), so here each text is parsed once into a
// named statement (its parameter types kept from that first describe), and every later run is one
// call: bind + describe + execute + sync. PostgreSQL keeps the statement's plan and replans it when
// a table it reads changes (as for the prepared statements on PostgreSQL, docs/decisions/179).
// Values are serialised and rows parsed by PGlite's own functions, as its `query` does, and the same
// locks are taken (a query outside a transaction waits for an open transaction), so callers see no
// difference but the time.
import { randomBytes } from "node:crypto";
import { PGlite, parse, protocol, types, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";
import { customPlansWanted } from "./custom-plans.ts";

/** The part of PGlite that drizzle's pglite driver calls. */
export interface PgliteQueryClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
}

/** Statements kept at most; the least recently used one is closed beyond this. */
export const MAX_STATEMENTS = 500;

interface Statement {
  name: string;
  paramTypes: number[];
}

const serialize = protocol.serialize;

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** What PGlite's `query` adds to a database error (the query, its parameters and options). */
function withQuery(error: unknown, text: string, params: unknown[], options: QueryOptions | undefined) {
  if (error && typeof error === "object" && "severity" in error) Object.assign(error, { query: text, params, queryOptions: options });
  return error;
}

/** "cached plan must not change result type": a table a statement returns whole changed shape. */
const isStalePlan = (error: unknown) => !!error && typeof error === "object" && (error as { code?: string }).code === "0A000";

type Parser = (value: string, typeId: number) => unknown;
type Parsers = Record<number, Parser>;
type BackendMessage = Awaited<ReturnType<PGlite["execProtocol"]>>["messages"][number];
/** The fields of the three messages read here (PGlite's pg-protocol messages). */
type Message = BackendMessage & { fields?: ({ name: string; dataTypeID: number } | string | null)[]; text?: string };

/**
 * The result of one statement, as PGlite's `parse.parseResults(messages, parsers, options)[0]`
 * gives it (same rows, fields, command, affectedRows and rowCount), with each column's parser
 * looked up once per result. PGlite's version copies its ~320 parsers into a new object on every
 * call (`{...parsers, ...options.parsers}`) and looks one up for every value: 90 µs for a 20-row
 * list, 150 µs for the dashboard's 700 daily sums, against 10 and 21 µs here (decision 196).
 */
export function parseResult<T>(messages: BackendMessage[], parsers: Parsers, options: QueryOptions | undefined): Results<T> {
  const own = options?.parsers as Parsers | undefined;
  const defaults = types.parsers as Parsers;
  let fields: { name: string; dataTypeID: number }[] = [];
  let columns: (Parser | undefined)[] = [];
  const rows: unknown[] = [];
  const arrays = options?.rowMode === "array";
  for (const message of messages as Message[]) {
    if (message.name === "rowDescription") {
      fields = (message.fields as { name: string; dataTypeID: number }[]).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
      columns = fields.map((f) => own?.[f.dataTypeID] ?? parsers[f.dataTypeID] ?? defaults[f.dataTypeID]);
    } else if (message.name === "dataRow") {
      const values = message.fields as (string | null)[];
      const row = values.map((v, i) => (v === null ? null : columns[i] ? columns[i]!(v, fields[i].dataTypeID) : v));
      // Object.fromEntries as PGlite: a column named "__proto__" stays a plain field.
      rows.push(arrays ? row : Object.fromEntries(row.map((v, i) => [fields[i].name, v])));
    } else if (message.name === "commandComplete") {
      const words = message.text!.split(" ");
      const command = words[0];
      const count = parseInt(words[words.length - 1], 10);
      const affectedRows = ["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"].includes(command) ? count : 0;
      const result: Results<T> = { rows: rows as T[], fields, affectedRows };
      Object.assign(result, { command });
      if (!Number.isNaN(count)) Object.assign(result, { rowCount: count });
      return result;
    }
  }
  return { affectedRows: 0, rows: [], fields: [] };
}

export function preparedStatements(pg: PGlite, maxStatements = MAX_STATEMENTS): PgliteQueryClient {
  // Insertion order is recency: a statement used is moved to the end.
  const statements = new Map<string, Statement>();
  // Names unique to this client, so two clients on one database (tests) never collide.
  const prefix = `colibri_${randomBytes(4).toString("hex")}_`;
  let counter = 0;

  async function forget(text: string) {
    const statement = statements.get(text);
    if (!statement) return;
    statements.delete(text);
    await pg.execProtocol(concat([serialize.close({ type: "S", name: statement.name }), serialize.sync()]), { syncToFs: false });
  }

  async function prepare(text: string): Promise<Statement> {
    const known = statements.get(text);
    if (known) {
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    const name = `${prefix}${++counter}`;
    const { messages } = await pg.execProtocol(concat([serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()]), { syncToFs: false });
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    statements.set(text, statement);
    if (statements.size > maxStatements) await forget(statements.keys().next().value!);
    return statement;
  }

  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const statement = await prepare(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i];
      const serializer = options?.serializers?.[type] ?? pg.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await pg.execProtocol(
      concat([serialize.bind({ statement: statement.name, values: values as string[] }), serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync()]),
      { syncToFs: false },
    );
    return parseResult<T>(messages, pg.parsers as Parsers, options);
  }

  /** One query, holding the query lock; outside a transaction, retried once on a stale plan. */
  async function query<T>(text: string, params: unknown[] = [], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    try {
      return await pg.runExclusive(() => run<T>(text, params, options));
    } catch (error) {
      if (isStalePlan(error) && statements.has(text)) {
        await pg.runExclusive(() => forget(text));
        if (!inTransaction) return query(text, params, options, inTransaction);
      }
      throw withQuery(error, text, params, options);
    } finally {
      if (!inTransaction) await pg.syncToFs();
    }
  }

  // PGlite's own query: explicit parameter types, a blob, or a query planned for its own values
  // (inside withCustomPlans: reports; docs/decisions/179).
  const usesPGliteQuery = (options: QueryOptions | undefined) => !!(options?.paramTypes || options?.blob) || customPlansWanted();

  return {
    async query<T>(text: string, params?: unknown[], options?: QueryOptions) {
      if (usesPGliteQuery(options)) return pg.query<T>(text, params, options);
      await pg._checkReady();
      // Like PGlite's query: wait while a transaction holds the database.
      return pg._runExclusiveTransaction(() => query<T>(text, params, options, false));
    },
    transaction<T>(fn: (tx: Transaction) => Promise<T>) {
      return pg.transaction((tx) => {
        const inner: Transaction = Object.create(tx, {
          query: {
            value: <R>(text: string, params?: unknown[], options?: QueryOptions) => {
              if (tx.closed) throw new Error("Transaction is closed");
              return usesPGliteQuery(options) ? tx.query<R>(text, params, options) : query<R>(text, params, options, true);
            },
          },
        });
        return fn(inner);
      });
    },
  };
}
