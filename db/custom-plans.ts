// Queries planned for their own values on every run (docs/decisions/179). Both databases keep each
// query as a prepared statement (db/client.ts preparedOnEachConnection, db/pglite-prepared.ts), and
// PostgreSQL then switches a statement to one generic plan after five runs when that plan's
// estimate is close. That suits the pages' small queries, whose planning was most of their cost. A
// report reads a period of a company's documents: its plan should depend on the period and the
// company. At 1,000,000 documents the items report's two queries took 56 and 63 ms with their own
// plans and 74 and 83 ms with the generic one. Reports and their Excel files run inside
// `withCustomPlans`, and their queries go unprepared, as drizzle sends them.
import { AsyncLocalStorage } from "node:async_hooks";

const customPlans = new AsyncLocalStorage<true>();

/** Runs `fn`; the queries it starts (and everything they await) are planned for their own values. */
export function withCustomPlans<T>(fn: () => T): T {
  return customPlans.run(true, fn);
}

/** Whether the running query was started inside `withCustomPlans`. */
export function customPlansWanted(): boolean {
  return customPlans.getStore() === true;
}
