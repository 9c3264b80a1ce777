// Expenses (issue 13 point 1; spec part 2 "Expenses", §3, §5, §8; docs/decisions/150): 'Nuevo gasto'
// through the real route action (multipart, CSRF, middleware) with a receipt stored under DATA_DIR
// with a generated name; bad input gets the Spanish messages, keeps what was typed (the receipt too)
// and stores nothing; the new-category dialog returns to the form with everything and the new
// category; the receipt is served to its company only (another company, a deleted expense, a
// tampered stored name: 404); delete with its confirmation; categories and payment methods; plan 5;
// the dashboard's expense figures.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNull, sql } from "drizzle-orm";
import { COUNT_AHEAD } from "../../db/queries/document-lists.ts";
import { expenseAttachments, expenseCategories, expensePaymentMethods, expenses } from "../../db/schema/index.ts";
import { dailySums, expensesOfMonth } from "../../db/queries/dashboard.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { attachmentPath, attachmentsRoot, storeAttachment, sweepPendingAttachments } from "../../app/server/expense-files.server.ts";
import { attachmentType, checkAttachment, displayFileName, expenseSchema, parsePaymentMethod } from "../../app/domain/expenses.ts";
import { parseForm } from "../../app/domain/forms.ts";
import { dashboardFigures } from "../../app/domain/dashboard.ts";
import { crCalendar } from "../../app/domain/format.ts";
import { costaRicaDay } from "../../app/domain/document-status.ts";
import * as list from "../../app/routes/expenses/expenses.tsx";
import * as newExpense from "../../app/routes/expenses/new-expense.tsx";
import * as newCategory from "../../app/routes/expenses/new-category.tsx";
import * as categories from "../../app/routes/expenses/categories.tsx";
import * as methods from "../../app/routes/expenses/payment-methods.tsx";
import * as file from "../../app/routes/expenses/expense-file.tsx";
import { createTestDatabase } from "../setup/db.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await database?.drop();
});

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 200 }, (_, i) => i % 256)]);
const png = (name = "recibo.png") => new File([PNG], name, { type: "image/png" });
const pdf = (name = "factura.pdf") => new File([new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")], name, { type: "application/pdf" });

function toastsOf(b: Browser) {
  const flash = b.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
}

async function setup(permission = 1) {
  const user = await createUser(database.db);
  const company = await createCompany(database.db, { permission, userIds: [user.id] });
  const b = await signedIn(database.db, user.id, company.id);
  const [category] = await database.db.insert(expenseCategories).values({ companyId: company.id, name: "Papelería" }).returning();
  return { user, company, b, category };
}

const valid = (categoryId: number, over: Record<string, string | Blob | (string | Blob)[]> = {}) => ({
  intent: "save",
  date: "2026-10-15",
  description: "Resmas de papel",
  amount: "12500.50",
  currency_id: "2",
  exchange_rate: "",
  reference: "",
  category_id: String(categoryId),
  payment_method: "01",
  ...over,
});

const liveExpenses = (companyId: number) => database.db.select().from(expenses).where(and(eq(expenses.companyId, companyId), isNull(expenses.deletedAt)));

describe("domain", () => {
  it("recognises receipts by their bytes, refuses anything else and sizes over the limit; names without folders", () => {
    expect(attachmentType(PNG)).toEqual({ mime: "image/png", ext: "png" });
    expect(attachmentType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toEqual({ mime: "image/jpeg", ext: "jpg" });
    expect(attachmentType(new TextEncoder().encode("%PDF-1.7"))).toEqual({ mime: "application/pdf", ext: "pdf" });
    expect(attachmentType(new TextEncoder().encode("<html><script>"))).toBeNull();
    expect(checkAttachment({ size: 10 * 1024 * 1024 + 1, head: PNG })).toEqual({ ok: false, message: "El archivo no puede superar 10 MB." });
    expect(displayFileName("C:\\Users\\ana\\..\\recibo\u0000.jpg", "jpg")).toBe("recibo.jpg");
    expect(displayFileName("../../", "pdf")).toBe("adjunto.pdf");
    expect(parsePaymentMethod("04")).toEqual({ code: "04", id: null });
    expect(parsePaymentMethod("m12")).toEqual({ code: null, id: 12 });
    expect(parsePaymentMethod("x")).toBeNull();
  });

  it("the form schema: the spec's required fields, 2 decimals, the dollar rate", () => {
    const r = parseForm(expenseSchema, { date: "", description: " ", amount: "10,555", currency_id: "1", exchange_rate: "", category_id: "", payment_method: "" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual({
      date: "La fecha es obligatoria",
      description: "La descripción es obligatoria",
      amount: "El monto debe ser un número con máximo 2 decimales (por ejemplo 1.500,50)",
      exchange_rate: "Indique el tipo de cambio del dólar (mayor que cero).",
      category_id: "La categoría es obligatoria",
      payment_method: "El método de pago es obligatorio",
    });
    const dollars = parseForm(expenseSchema, { date: "2026-10-15", description: "Hosting", amount: "12,5", currency_id: "1", exchange_rate: "", category_id: "3", payment_method: "02" });
    expect(dollars.ok ? null : dollars.errors).toEqual({ exchange_rate: "Indique el tipo de cambio del dólar (mayor que cero)." });
    const ok = parseForm(expenseSchema, { date: "2026-10-15", description: "Hosting", amount: "12,5", currency_id: "1", exchange_rate: "505,25", category_id: "3", payment_method: "m7" });
    expect(ok.ok && ok.data).toMatchObject({ amount: "12.50000", exchange_rate: "505.25000", currency_id: 1, category_id: 3, attachment_id: null });
    const colones = parseForm(expenseSchema, { date: "2026-02-30", description: "x", amount: "0", currency_id: "2", exchange_rate: "999", category_id: "3", payment_method: "01" });
    expect(colones.ok ? null : colones.errors).toEqual({ date: "La fecha no es válida", amount: "El monto debe ser mayor que cero" });
  });
});

describe("'Nuevo gasto'", () => {
  it("counts only so far past the page: a company with more expenses than that gets the pager's 'more' (works without JavaScript)", async () => {
    const { company, b, category } = await setup();
    await database.db.execute(
      sql`insert into expenses (company_id, spent_on, category_id, description, amount, currency_id, exchange_rate, payment_method_code)
          select ${company.id}, date '2026-01-01' + (i % 300), ${category.id}, 'Gasto ' || i, 1000, 2, 1, '01' from generate_series(1, ${COUNT_AHEAD + 25}) i`,
    );
    const l = await call(b, list.loader, { path: "/expenses" });
    expect(l.data).toMatchObject({ page: 1, lastPage: (10 + COUNT_AHEAD) / 10, totalCapped: true });
    expect(l.data.rows).toHaveLength(10);
    expect(l.data.rows[0].date).toBe("27/10/2026");
    // Near the end the count is exact again.
    const near = await call(b, list.loader, { path: "/expenses?page=1002" });
    expect(near.data).toMatchObject({ page: 1002, lastPage: 1003, totalCapped: false });
    const last = await call(b, list.loader, { path: "/expenses?page=1003" });
    expect(last.data).toMatchObject({ page: 1003, lastPage: 1003, totalCapped: false });
    expect(last.data.rows).toHaveLength(5);
  }, 60_000);

  it("saves an expense with its receipt under a generated name outside the web root; the list shows it with 'S/R'", async () => {
    const { company, b, category } = await setup();
    const r = await call(b, newExpense.action, { path: "/expenses/new", form: valid(category.id, { attachment: png("../../recibo de papel.png") }) });
    expect(r.status).toBe(302);
    expect(r.location).toBe("/expenses");
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Gasto registrado correctamente" }]);
    const [e] = await liveExpenses(company.id);
    expect(e).toMatchObject({ spentOn: "2026-10-15", description: "Resmas de papel", amount: "12500.50000", currencyId: 2, exchangeRate: "1.00000", reference: null, categoryId: category.id, paymentMethodCode: "01", paymentMethodId: null });
    const [att] = await database.db.select().from(expenseAttachments).where(eq(expenseAttachments.id, e.attachmentId!));
    expect(att.storedName).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(att).toMatchObject({ companyId: company.id, originalName: "recibo de papel.png", mime: "image/png", size: PNG.length });
    const stored = attachmentPath(att.storedName)!;
    expect(path.dirname(stored)).toBe(attachmentsRoot());
    expect(stored.startsWith(path.resolve(process.env.DATA_DIR!))).toBe(true);
    expect(stored.includes(`${path.sep}build${path.sep}`) || stored.includes(`${path.sep}public${path.sep}`)).toBe(false);
    expect(new Uint8Array(fs.readFileSync(stored))).toEqual(PNG);

    const l = await call(b, list.loader, { path: "/expenses" });
    expect(l.data.rows).toEqual([{ id: e.id, description: "Resmas de papel", category: "Papelería", amount: "₡12.500,50", date: "15/10/2026", reference: "S/R", attachment: `/expense-file/${e.id}` }]);

    const f = await call(b, file.loader, { path: `/expense-file/${e.id}`, params: { id: String(e.id) } });
    expect(f.status).toBe(200);
    expect(f.headers.get("content-type")).toBe("image/png");
    expect(f.headers.get("content-security-policy")).toContain("sandbox");
    expect(f.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await f.response.arrayBuffer())).toEqual(PNG);
  });

  it("bad input: the messages next to the fields, everything typed kept (the receipt too), nothing saved; then it saves with the kept receipt", async () => {
    const { company, b, category } = await setup();
    const r = await call(b, newExpense.action, {
      path: "/expenses/new",
      form: valid(category.id, { description: "", amount: "10,555", currency_id: "1", exchange_rate: "", reference: "FAC-99", attachment: pdf() }),
    });
    expect(r.status).toBe(400);
    expect(r.data.errors).toEqual({ description: "La descripción es obligatoria", amount: "El monto debe ser un número con máximo 2 decimales (por ejemplo 1.500,50)", exchange_rate: "Indique el tipo de cambio del dólar (mayor que cero)." });
    expect(r.data.values).toMatchObject({ amount: "10,555", currency_id: "1", reference: "FAC-99", category_id: String(category.id) });
    expect(r.data.attachment).toMatchObject({ name: "factura.pdf" });
    expect(await liveExpenses(company.id)).toHaveLength(0);
    const again = await call(b, newExpense.action, { path: "/expenses/new", form: valid(category.id, { currency_id: "1", exchange_rate: "505.25", amount: "10.55", reference: "FAC-99", attachment_id: String(r.data.attachment.id) }) });
    expect(again.status).toBe(302);
    const [e] = await liveExpenses(company.id);
    expect(e).toMatchObject({ currencyId: 1, exchangeRate: "505.25000", amount: "10.55000", reference: "FAC-99", attachmentId: r.data.attachment.id });
    const f = await call(b, file.loader, { path: `/expense-file/${e.id}`, params: { id: String(e.id) } });
    expect(f.headers.get("content-type")).toBe("application/pdf");
    expect(f.headers.get("content-disposition")).toMatch(/^attachment; filename="factura.pdf"/);
  });

  it("refuses a receipt that is too large, not a photo or PDF, or two files; nothing is stored", async () => {
    const { company, b, category } = await setup();
    const before = (await database.db.select().from(expenseAttachments).where(eq(expenseAttachments.companyId, company.id))).length;
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], "foto.jpg", { type: "image/jpeg" });
    const tooBig = await call(b, newExpense.action, { path: "/expenses/new", form: valid(category.id, { attachment: big }) });
    expect(tooBig.status).toBe(400);
    expect(tooBig.data.errors).toEqual({ attachment: "El archivo no puede superar 10 MB." });
    const fake = new File([new TextEncoder().encode("<html><script>alert(1)</script>")], "recibo.jpg", { type: "image/jpeg" });
    const notImage = await call(b, newExpense.action, { path: "/expenses/new", form: valid(category.id, { attachment: fake }) });
    expect(notImage.data.errors).toEqual({ attachment: "El archivo debe ser una foto (JPG, PNG, GIF o WebP) o un PDF." });
    // Also when leaving for the category dialog: said at once, the dialog not opened.
    const leaving = await call(b, newExpense.action, { path: "/expenses/new", form: valid(category.id, { intent: "new-category", attachment: fake }) });
    expect(leaving.status).toBe(400);
    expect(leaving.data.errors).toEqual({ attachment: "El archivo debe ser una foto (JPG, PNG, GIF o WebP) o un PDF." });
    const two = await call(b, newExpense.action, { path: "/expenses/new", form: valid(category.id, { attachment: [png(), pdf()] }) });
    expect(two.data.errors).toEqual({ attachment: "Solo se permite un archivo adjunto." });
    expect(await liveExpenses(company.id)).toHaveLength(0);
    expect((await database.db.select().from(expenseAttachments).where(eq(expenseAttachments.companyId, company.id))).length).toBe(before);
  });

  it("another company's category, own payment method or kept receipt is refused", async () => {
    const a = await setup();
    const other = await setup();
    const [method] = await database.db.insert(expensePaymentMethods).values({ companyId: other.company.id, name: "Vale de caja" }).returning();
    const foreign = await storeAttachment(database.db, { companyId: other.company.id, userId: other.user.id, file: png(), now: new Date() });
    if (!foreign.ok) throw new Error(foreign.message);
    const r = await call(a.b, newExpense.action, { path: "/expenses/new", form: valid(other.category.id, { payment_method: `m${method.id}`, attachment_id: String(foreign.id) }) });
    expect(r.status).toBe(400);
    expect(r.data.errors).toEqual({ category_id: "La categoría seleccionada no existe", payment_method: "El método de pago seleccionado no existe" });
    expect(r.data.attachment).toBeNull();
    const onlyFile = await call(a.b, newExpense.action, { path: "/expenses/new", form: valid(a.category.id, { attachment_id: String(foreign.id) }) });
    expect(onlyFile.status).toBe(302);
    const [e] = await liveExpenses(a.company.id);
    // The foreign upload was not taken: the expense has no receipt.
    expect(e.attachmentId).toBeNull();
  });

  it("'Nueva' categoría: the typed values and the chosen file wait while the dialog is open and come back with the new category chosen", async () => {
    const { company, b, category } = await setup();
    const go = await call(b, newExpense.action, { path: "/expenses/new", form: valid(category.id, { intent: "new-category", description: "Taxi al aeropuerto", amount: "8000", reference: "T-1", attachment: png("taxi.png") }) });
    expect(go.status).toBe(302);
    expect(go.location).toBe("/expenses/new/category");
    // Behind the dialog the form shows what was typed.
    const behind = await call(b, newExpense.loader, { path: "/expenses/new/category" });
    expect(behind.data.values).toMatchObject({ description: "Taxi al aeropuerto", amount: "8000", reference: "T-1" });
    expect(behind.data.attachment).toMatchObject({ name: "taxi.png" });
    const empty = await call(b, newCategory.action, { path: "/expenses/new/category", form: { name: "  " } });
    expect(empty.status).toBe(400);
    expect(empty.data.errors).toEqual({ name: "El nombre de la categoría es obligatorio" });
    const dup = await call(b, newCategory.action, { path: "/expenses/new/category", form: { name: "PAPELERÍA" } });
    expect(dup.data.errors).toEqual({ name: "Ya existe una categoría con ese nombre" });
    const saved = await call(b, newCategory.action, { path: "/expenses/new/category", form: { name: "Transporte" } });
    const [transport] = await database.db.select().from(expenseCategories).where(and(eq(expenseCategories.companyId, company.id), eq(expenseCategories.name, "Transporte")));
    expect(saved.location).toBe(`/expenses/new?restore=1&category=${transport.id}`);
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Categoría agregada correctamente." }]);
    const back = await call(b, newExpense.loader, { path: saved.location! });
    expect(back.data.values).toMatchObject({ description: "Taxi al aeropuerto", amount: "8000", reference: "T-1", category_id: String(transport.id) });
    expect(back.data.attachment).toMatchObject({ name: "taxi.png" });
    expect(back.data.categories.map((c: { name: string }) => c.name)).toEqual(["Papelería", "Transporte"]);
    const done = await call(b, newExpense.action, { path: "/expenses/new", form: { ...back.data.values, intent: "save" } });
    expect(done.status).toBe(302);
    const [e] = await liveExpenses(company.id);
    expect(e).toMatchObject({ description: "Taxi al aeropuerto", categoryId: transport.id, reference: "T-1" });
    expect(e.attachmentId).toBe(back.data.attachment.id);
    // Taken once: a fresh form is empty again.
    expect((await call(b, newExpense.loader, { path: "/expenses/new?restore=1" })).data.values.description).toBe("");
  });
});

describe("the receipt route", () => {
  it("404 for another company, a deleted expense, an unknown id, and a stored name that would leave the folder", async () => {
    const a = await setup();
    const other = await setup();
    await call(a.b, newExpense.action, { path: "/expenses/new", form: valid(a.category.id, { attachment: png() }) });
    const [e] = await liveExpenses(a.company.id);
    const get = (b: Browser, id: string) => call(b, file.loader, { path: `/expense-file/${id}`, params: { id } });
    expect((await get(a.b, String(e.id))).status).toBe(200);
    const foreign = await get(other.b, String(e.id));
    expect(foreign.status).toBe(404);
    expect(await foreign.response.text()).toBe("Este archivo no esta disponible para su descarga");
    expect((await get(a.b, "999999")).status).toBe(404);
    expect((await get(a.b, "1abc")).status).toBe(404);
    // A stored name pointing out of the folder (as a tampered row would) is never opened.
    const secret = path.join(process.env.DATA_DIR!, "secreto.txt");
    fs.mkdirSync(process.env.DATA_DIR!, { recursive: true });
    fs.writeFileSync(secret, "no");
    for (const bad of ["../../secreto.txt", "/etc/passwd", `..${path.sep}secreto.txt`, "0123456789abcdef0123456789abcdef.png/../../secreto.txt"]) {
      expect(attachmentPath(bad), bad).toBeNull();
      await database.db.update(expenseAttachments).set({ storedName: bad }).where(eq(expenseAttachments.id, e.attachmentId!));
      expect((await get(a.b, String(e.id))).status, bad).toBe(404);
    }
    // A deleted expense's receipt is not served.
    const [e2] = await database.db.select().from(expenses).where(eq(expenses.id, e.id));
    await call(a.b, newExpense.action, { path: "/expenses/new", form: valid(a.category.id, { attachment: png() }) });
    const [second] = (await liveExpenses(a.company.id)).filter((x) => x.id !== e2.id);
    expect((await get(a.b, String(second.id))).status).toBe(200);
    await call(a.b, list.action, { path: "/expenses", form: { intent: "delete", confirm: "yes", expense_id: String(second.id), back: "/expenses" } });
    expect((await get(a.b, String(second.id))).status).toBe(404);
  });

  it("uploads never used are swept after a day (row and file); used ones stay", async () => {
    const { company, user } = await setup();
    const old = await storeAttachment(database.db, { companyId: company.id, userId: user.id, file: png(), now: new Date("2026-01-01T00:00:00Z") });
    if (!old.ok) throw new Error(old.message);
    const [row] = await database.db.select().from(expenseAttachments).where(eq(expenseAttachments.id, old.id));
    const file = attachmentPath(row.storedName)!;
    expect(fs.existsSync(file)).toBe(true);
    expect(await sweepPendingAttachments(database.db, { companyId: company.id, now: new Date("2026-01-01T12:00:00Z") })).toBe(0);
    expect(await sweepPendingAttachments(database.db, { companyId: company.id, now: new Date("2026-01-02T01:00:00Z") })).toBe(1);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe("the list", () => {
  it("deletes with its confirmation ('Acción cancelada' changes nothing); another company's expense is 404; search and pages", async () => {
    const a = await setup();
    const other = await setup();
    for (let i = 1; i <= 12; i++) await call(a.b, newExpense.action, { path: "/expenses/new", form: valid(a.category.id, { description: `Gasto ${i}`, date: `2026-10-${String(i).padStart(2, "0")}`, reference: i === 3 ? "REF-333" : "" }) });
    const [first] = (await liveExpenses(a.company.id)).filter((e) => e.description === "Gasto 1");
    const cancel = await call(a.b, list.action, { path: "/expenses", form: { intent: "delete", confirm: "cancel", expense_id: String(first.id), back: "/expenses?page=2" } });
    expect(cancel.location).toBe("/expenses?page=2");
    expect(toastsOf(a.b)).toEqual([{ type: "info", text: "Acción cancelada" }]);
    expect(await liveExpenses(a.company.id)).toHaveLength(12);
    const foreign = await call(other.b, list.action, { path: "/expenses", form: { intent: "delete", confirm: "yes", expense_id: String(first.id), back: "/expenses" } });
    expect(foreign.status).toBe(404);
    const yes = await call(a.b, list.action, { path: "/expenses", form: { intent: "delete", confirm: "yes", expense_id: String(first.id), back: "https://evil.example/" } });
    expect(yes.location).toBe("/expenses");
    expect(toastsOf(a.b)).toEqual([{ type: "success", text: "Gasto eliminado" }]);
    expect(await liveExpenses(a.company.id)).toHaveLength(11);
    const page1 = await call(a.b, list.loader, { path: "/expenses?page=1&perPage=10" });
    expect(page1.data.rows).toHaveLength(10);
    expect(page1.data.lastPage).toBe(2);
    expect(page1.data.rows[0].description).toBe("Gasto 12");
    const found = await call(a.b, list.loader, { path: "/expenses?search=ref-333" });
    expect(found.data.rows.map((r: { description: string }) => r.description)).toEqual(["Gasto 3"]);
    expect(found.data.lastPage).toBe(1);
    // By the category's name (accents ignored): every live expense, counted with the category joined.
    const byCategory = await call(a.b, list.loader, { path: "/expenses?search=papeleria&perPage=10" });
    expect(byCategory.data.rows).toHaveLength(10);
    expect(byCategory.data.lastPage).toBe(2);
    expect((await call(a.b, list.loader, { path: "/expenses?search=viajes" })).data).toMatchObject({ rows: [], lastPage: 1 });
    expect((await call(other.b, list.loader, { path: "/expenses" })).data.rows).toEqual([]);
  });

  it("plan 5 reads the list but cannot create or delete (403)", async () => {
    const { b, category } = await setup(5);
    expect((await call(b, list.loader, { path: "/expenses" })).data.plan5).toBe(true);
    expect((await call(b, newExpense.loader, { path: "/expenses/new" })).status).toBe(403);
    expect((await call(b, newExpense.action, { path: "/expenses/new", form: valid(category.id) })).status).toBe(403);
    expect((await call(b, list.action, { path: "/expenses", form: { intent: "delete", confirm: "yes", expense_id: "1", back: "/expenses" } })).status).toBe(403);
    expect((await call(b, categories.loader, { path: "/expenses/categories" })).status).toBe(403);
  });

  it("plan 2 (reception only) does not reach expenses", async () => {
    const { b } = await setup(2);
    const r = await call(b, list.loader, { path: "/expenses" });
    expect(r.status).toBe(302);
    expect(r.location).toBe("/dashboard");
  });
});

describe("categories and payment methods", () => {
  it("categories are added and renamed (unique per company, ignoring case); another company's id is 404", async () => {
    const a = await setup();
    const other = await setup();
    const add = await call(a.b, categories.action, { path: "/expenses/categories", form: { name: "Alquiler" } });
    expect(add.location).toBe("/expenses/categories");
    expect(toastsOf(a.b)).toEqual([{ type: "success", text: "Categoría agregada correctamente." }]);
    const [rent] = await database.db.select().from(expenseCategories).where(and(eq(expenseCategories.companyId, a.company.id), eq(expenseCategories.name, "Alquiler")));
    const rename = await call(a.b, categories.action, { path: "/expenses/categories", form: { category_id: String(rent.id), name: "Alquiler de local" } });
    expect(rename.status).toBe(302);
    expect(toastsOf(a.b)).toEqual([{ type: "success", text: "Categoría actualizada correctamente." }]);
    const clash = await call(a.b, categories.action, { path: "/expenses/categories", form: { category_id: String(rent.id), name: "papelería" } });
    expect(clash.data).toEqual({ id: rent.id, errors: { name: "Ya existe una categoría con ese nombre" }, name: "papelería" });
    expect((await call(other.b, categories.action, { path: "/expenses/categories", form: { category_id: String(rent.id), name: "Robada" } })).status).toBe(404);
    // The same name in another company is fine.
    expect((await call(other.b, categories.action, { path: "/expenses/categories", form: { name: "Alquiler de local" } })).status).toBe(302);
    const l = await call(a.b, categories.loader, { path: "/expenses/categories" });
    expect(l.data.categories.map((c: { name: string }) => c.name)).toEqual(["Alquiler de local", "Papelería"]);
  });

  it("own payment methods are added and edited and offered in the form after Hacienda's; Hacienda's names are taken", async () => {
    const a = await setup();
    const add = await call(a.b, methods.action, { path: "/expenses/payment-methods", form: { name: "Caja chica", code: "CC" } });
    expect(add.status).toBe(302);
    expect(toastsOf(a.b)).toEqual([{ type: "success", text: "Método de pago agregado correctamente." }]);
    const taken = await call(a.b, methods.action, { path: "/expenses/payment-methods", form: { name: "efectivo", code: "" } });
    expect(taken.data.errors).toEqual({ name: "Ya existe un método de pago con ese nombre" });
    const empty = await call(a.b, methods.action, { path: "/expenses/payment-methods", form: { name: "", code: "" } });
    expect(empty.data.errors).toEqual({ name: "El nombre del método de pago es obligatorio" });
    const [own] = await database.db.select().from(expensePaymentMethods).where(eq(expensePaymentMethods.companyId, a.company.id));
    const edit = await call(a.b, methods.action, { path: "/expenses/payment-methods", form: { method_id: String(own.id), name: "Caja chica oficina", code: "CCO" } });
    expect(edit.status).toBe(302);
    expect(toastsOf(a.b)).toEqual([{ type: "success", text: "Método de pago actualizado correctamente." }]);
    const form = await call(a.b, newExpense.loader, { path: "/expenses/new" });
    expect(form.data.paymentMethods.map((m: { name: string }) => m.name)).toEqual(["Efectivo", "Tarjeta", "Cheque", "Transferencia – depósito bancario", "Recaudado por terceros", "SINPE Móvil", "Plataforma digital", "Otros", "Caja chica oficina"]);
    const saved = await call(a.b, newExpense.action, { path: "/expenses/new", form: valid(a.category.id, { payment_method: `m${own.id}` }) });
    expect(saved.status).toBe(302);
    const [e] = await liveExpenses(a.company.id);
    expect(e).toMatchObject({ paymentMethodCode: null, paymentMethodId: own.id });
  });
});

describe("dashboard", () => {
  it("'Gastos', 'Gastos mes actual' and 'Ingresos vs Gastos' count this month's live expenses in colones, by category", async () => {
    const { company, category } = await setup();
    const [travel] = await database.db.insert(expenseCategories).values({ companyId: company.id, name: "Viajes" }).returning();
    // One instant for the expenses' day and the dashboard's month: computed apart, Costa Rica's midnight
    // (06:00 UTC) at a month's end could fall between them and put the expenses in the previous month.
    const now = new Date();
    const today = costaRicaDay(now);
    await database.db.insert(expenses).values([
      { companyId: company.id, categoryId: category.id, spentOn: today, description: "Papel", amount: "1000.50", paymentMethodCode: "01" },
      { companyId: company.id, categoryId: travel.id, spentOn: today, description: "Vuelo", amount: "100", currencyId: 1, exchangeRate: "505.255", paymentMethodCode: "02" },
      { companyId: company.id, categoryId: travel.id, spentOn: today, description: "Borrado", amount: "999999", paymentMethodCode: "01", deletedAt: new Date() },
    ]);
    const cal = crCalendar(now);
    const since = new Date(Date.UTC(cal.year, cal.month - 7, 1, 6));
    const from = new Date(Date.UTC(cal.year, cal.month - 1, 1, 6));
    const daysFrom = new Date(Date.UTC(cal.year, cal.month - 2, 1, 6));
    const f = dashboardFigures(await dailySums(database.db, { companyId: company.id, since, daysFrom }), cal);
    // 1 000.50 + 100 × 505.255 = 1 000.50 + 50 525.50 (rounded to céntimos) = 51 526.00.
    expect(f.expenses).toBe("51526.00");
    expect(f.months[5].expenses).toBe("51526.00");
    expect(await expensesOfMonth(database.db, { companyId: company.id, from })).toEqual([
      { name: "Viajes", total: "50525.50" },
      { name: "Papelería", total: "1000.50" },
    ]);
  });
});
