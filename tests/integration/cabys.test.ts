// CABYS catalogue: the BCCR spreadsheet import (streaming, 25,000 rows, refused as a whole with the rows
// named when broken, non-xlsx and oversized uploads refused), search by code prefix and words, and the
// fallback to Hacienda's public fe/cabys (cached) when nothing is local.
import { count, eq } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cabysCodes } from "../../db/schema/index.ts";
import * as itemsRoute from "../../app/routes/items/items.tsx";
import { CABYS_IMPORT_MESSAGES, CABYS_MAX_BYTES, ITEM_MESSAGES } from "../../app/domain/item-schemas.ts";
import { importCabysSpreadsheet, searchCabysCatalogue } from "../../app/server/cabys.server.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { cabysXlsxBytes, generatedCode, generatedDescription, writeCabysXlsx } from "../fixtures/cabys-xlsx.ts";
import { REMOTE_CABYS, startFakeHaciendaPublic, type FakePublic } from "../fixtures/fake-hacienda-public.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: FakePublic;
let admin: Browser;
let staff: Browser;

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const upload = (bytes: Buffer | Uint8Array, name = "Catalogo.xlsx") => new File([new Uint8Array(bytes)], name, { type: XLSX_TYPE });
const total = async () => Number((await database.db.select({ n: count() }).from(cabysCodes))[0].n);

function toastsOf(browser: Browser) {
  const flash = browser.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
}

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeHaciendaPublic();
  process.env.HACIENDA_PUBLIC_API_URL = fake.url;
  process.env.HACIENDA_LOOKUP_TIMEOUT_MS = "500";
  // The catalogue is shared: only the super-admin imports it (tests/integration/shared-content.test.ts).
  process.env.SUPER_ADMIN_EMAIL = "cabys-raiz@colibri.test";
  const a = await createUser(database.db, { role: "admin", email: "cabys-raiz@colibri.test" });
  const u = await createUser(database.db);
  const c = await createCompany(database.db, { userIds: [a.id, u.id] });
  await setupItemsForCompany(database.db, c.id);
  admin = await signedIn(database.db, a.id, c.id);
  staff = await signedIn(database.db, u.id, c.id);
});
afterAll(async () => {
  delete process.env.SUPER_ADMIN_EMAIL;
  await fake.close();
  await database.drop();
});
beforeEach(() => {
  fake.cabysDown = false;
});

describe("import of the BCCR spreadsheet", () => {
  it("a spreadsheet with broken rows is refused as a whole, naming the rows, with nothing saved", async () => {
    const bytes = await cabysXlsxBytes({
      rows: 40,
      overrides: { 4: { code: "12345" }, 10: { description: "" }, 20: { tax: "trece" }, 30: { code: 2110000000000.5 } },
    });
    const before = await total();
    const r = await call(admin, itemsRoute.action, { path: "/items", form: { intent: "import-cabys", file: upload(bytes) } });
    expect(r.status).toBe(400);
    expect(r.data.importMessage).toBe(CABYS_IMPORT_MESSAGES.refused);
    // Data row i sits on spreadsheet row i + 3 (title on row 1, header on row 2).
    expect(r.data.importErrors).toEqual([
      "Fila 7: el código CABYS debe tener 13 dígitos",
      `Fila 13: falta la descripción del código ${generatedCode(10)}`,
      "Fila 23: el impuesto «trece» no es válido (por ejemplo 13%)",
      "Fila 33: el código CABYS debe tener 13 dígitos",
    ]);
    expect(await total()).toBe(before);
  });

  it("a file that is not an xlsx is refused", async () => {
    const r = await call(admin, itemsRoute.action, { path: "/items", form: { intent: "import-cabys", file: upload(Buffer.from("codigo,descripcion\n1,2\n"), "cabys.csv") } });
    expect(r.status).toBe(400);
    expect(r.data.importMessage).toBe(CABYS_IMPORT_MESSAGES.notXlsx);
    // A zip that is not a workbook.
    const fakeZip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 1)]);
    const z = await call(admin, itemsRoute.action, { path: "/items", form: { intent: "import-cabys", file: upload(fakeZip) } });
    expect(z.data.importMessage).toBe(CABYS_IMPORT_MESSAGES.notXlsx);
  });

  it("an oversized upload is refused (declared length and actual size)", async () => {
    const big = Buffer.alloc(CABYS_MAX_BYTES + 1, 0);
    big.set([0x50, 0x4b, 0x03, 0x04]);
    const r = await call(admin, itemsRoute.action, { path: "/items", form: { intent: "import-cabys", file: upload(big) } });
    expect(r.status).toBe(400);
    expect(r.data.importMessage).toBe(CABYS_IMPORT_MESSAGES.tooLarge);
    const declared = await call(admin, itemsRoute.action, { path: "/items", form: { intent: "import-cabys", file: upload(Buffer.from("x")) }, headers: { "content-length": String(CABYS_MAX_BYTES * 2) } });
    expect(declared.status).toBe(413);
    expect(declared.data.importMessage).toBe(CABYS_IMPORT_MESSAGES.tooLarge);
  });

  it("a missing file and a sheet without the expected header are explained", async () => {
    const none = await call(admin, itemsRoute.action, { path: "/items", form: { intent: "import-cabys" } });
    expect(none.data.importMessage).toBe(CABYS_IMPORT_MESSAGES.missingFile);
    const bytes = await cabysXlsxBytes({ rows: 3, sheetName: "Hoja1", header: ["Código", "Nombre", "Precio"] });
    const r = await call(admin, itemsRoute.action, { path: "/items", form: { intent: "import-cabys", file: upload(bytes) } });
    expect(r.status).toBe(400);
    expect(r.data.importMessage).toBe(CABYS_IMPORT_MESSAGES.noHeader);
  });

  it("a non-admin may not import", async () => {
    const bytes = await cabysXlsxBytes({ rows: 2 });
    const r = await call(staff, itemsRoute.action, { path: "/items", form: { intent: "import-cabys", file: upload(bytes) } });
    expect(r.status).toBe(403);
  });

  it("imports a generated 25,000-row spreadsheet in one go, then updates on a second import", async () => {
    const bytes = await cabysXlsxBytes({ rows: 25_000 });
    const r = await call(admin, itemsRoute.action, { path: "/items", form: { intent: "import-cabys", file: upload(bytes) } });
    expect(r.status).toBe(302);
    expect(toastsOf(admin)).toEqual([{ type: "success", text: CABYS_IMPORT_MESSAGES.imported(25_000) }]);
    expect(await total()).toBeGreaterThanOrEqual(25_000);
    const [row] = await database.db.select().from(cabysCodes).where(eq(cabysCodes.code, generatedCode(12_345)));
    expect(row.description).toBe(generatedDescription(12_345));
    expect(row.categories).toContain("Categoría 1 de");
    const again = await importCabysSpreadsheet(database.db, await writeCabysXlsx({ rows: 3, overrides: { 1: { description: "Descripción nueva" } } }));
    expect(again).toEqual({ ok: true, imported: 3 });
    const [updated] = await database.db.select().from(cabysCodes).where(eq(cabysCodes.code, generatedCode(1)));
    expect(updated.description).toBe("Descripción nueva");
  }, 120_000);

  it("prefers the sheet named Cabys and reads percentage-formatted numbers", async () => {
    const file = await writeCabysXlsx({ rows: 8, extraSheetsBefore: ["Notas"], numericTax: true, overrides: { 0: { code: "8880000000001" } } });
    const r = await importCabysSpreadsheet(database.db, file);
    expect(r).toEqual({ ok: true, imported: 8 });
    const [row] = await database.db.select().from(cabysCodes).where(eq(cabysCodes.code, "8880000000001"));
    expect(Number(row.taxRate)).toBe(13);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});

describe("search", () => {
  it("by code prefix and by words (accent-insensitive), at most 20", async () => {
    const byPrefix = await searchCabysCatalogue(database.db, generatedCode(123).slice(0, 12));
    expect(byPrefix.results.length).toBeGreaterThan(0);
    expect(byPrefix.results.every((r) => r.code.startsWith(generatedCode(123).slice(0, 12)))).toBe(true);
    const byWords = await searchCabysCatalogue(database.db, "CAFE tostado");
    expect(byWords.results).toHaveLength(20);
    expect(byWords.results.every((r) => /café tostado/.test(r.description))).toBe(true);
    expect(byWords.source).toBe("local");
  });

  it("asks Hacienda when nothing is local, and caches what it finds", async () => {
    const r = await searchCabysCatalogue(database.db, "servicio remoto");
    expect(r.source).toBe("hacienda");
    expect(r.results.map((x) => x.code)).toEqual([REMOTE_CABYS.codigo]);
    expect(fake.requests.some((q) => q.startsWith("/fe/cabys?q=servicio%20remoto"))).toBe(true);
    const again = await searchCabysCatalogue(database.db, "servicio remoto");
    expect(again.source).toBe("local");
  });

  it("a 13-digit code not local is looked up by codigo; Hacienda down gives a clear message", async () => {
    fake.cabysDown = true;
    const r = await searchCabysCatalogue(database.db, "9999999999992");
    expect(r.results).toEqual([]);
    expect(r.message).toBe(ITEM_MESSAGES.cabysOffline);
    fake.cabysDown = false;
    const ok = await searchCabysCatalogue(database.db, "9999999999992");
    expect(ok.results[0]).toMatchObject({ code: "9999999999992", taxRate: "0" });
  });
});
