import { describe, expect, it } from "vitest";
import { checkDraft, DRAFT_MESSAGES, draftToComprobante, draftTotals } from "./document-draft.ts";
import { applyItemPicks, billedToRepresentative, blankLine, chosenStudent, creditTermOptions, offeredCreditTerms, readCreditTerm, errorMap, FORM_MESSAGES, FORM_UNITS, hasExoneration, isBlankLine, readDocumentForm, toDraft, withoutBlankLines, type FormItem, type FormTaxType } from "./document-form.ts";
import { unitsOfMeasure } from "../../db/seed/reference-data.ts";
import { formValuesFromDraft } from "./document-source.ts";

const taxTypes: FormTaxType[] = [
  { id: 11, name: "IVA 13%", rate: "13.0000", taxCode: "01", vatCode: "08" },
  { id: 12, name: "IVA 4%", rate: "4.0000", taxCode: "01", vatCode: "04" },
];
const items: FormItem[] = [{ id: 7, code: "LAP-14", cabysCode: "4523000000100", name: "Portátil", description: "Computadora portátil 14 pulgadas", unitCode: "Unid", taxTypeId: 11, price: "450000.00000" }];

const flat = {
  client_id: "5",
  sale_condition: "01",
  "payments[0].code": "01",
  currency: "CRC",
  note: "Gracias",
  "lines[3].description": "Horas de consultoría en sistemas",
  "lines[3].cabys": "8313100000000",
  "lines[3].unit": "Sp",
  "lines[3].quantity": "10",
  "lines[3].price": "25000",
  "lines[3].discount": "",
  "lines[3].taxTypeId": "12",
  "lines[0].description": "Computadora portátil 14 pulgadas",
  "lines[0].code": "LAP-14",
  "lines[0].cabys": "4523000000100",
  "lines[0].unit": "Unid",
  "lines[0].quantity": " 2 ",
  "lines[0].price": "450000",
  "lines[0].discount": "5",
  "lines[0].taxTypeId": "11",
  "lines[x].description": "ignored",
};

describe("document form parsing", () => {
  it("reads the flat fields into ordered lines and a draft with the same totals as the fixture", () => {
    const form = readDocumentForm(flat);
    expect(form.lines.map((l) => l.description)).toEqual(["Computadora portátil 14 pulgadas", "Horas de consultoría en sistemas"]);
    expect(form.lines[0].quantity).toBe("2");
    const { draft, errors } = toDraft("fe", form, taxTypes);
    expect(errors).toEqual([]);
    expect(checkDraft(draft)).toEqual([]);
    expect(draft).toMatchObject({ kind: "fe", clientId: 5, saleCondition: "01", payments: [{ code: "01" }], currency: "CRC", exchangeRate: "1", note: "Gracias" });
    expect(draft.lines[0]).toMatchObject({ code: "LAP-14", cabys: "4523000000100", unitPrice: "450000", discountPercent: "5", tax: { code: "01", tarifaCode: "08" } });
    expect(draft.lines[1].tax).toEqual({ code: "01", tarifaCode: "04" });
    expect(draftTotals(draft).resumen.totalComprobante).toBe("1226150.00000");
  });

  it("up to four payment methods with their amounts", () => {
    const { draft } = toDraft("fe", readDocumentForm({ ...flat, "payments[0].code": "02", "payments[0].amount": "1000000", "payments[1].code": "04", "payments[1].amount": "226150" }), taxTypes);
    expect(draft.payments).toEqual([{ code: "02", amount: "1000000" }, { code: "04", amount: "226150" }]);
    expect(readDocumentForm({}).payments).toEqual([{ code: "01", amount: "", other: "" }]);
  });

  it("an international client only on tickets, both fields required", () => {
    const intl = { ...flat, international: "on", international_name: "John Smith", international_cedula: "" };
    const te = toDraft("te", readDocumentForm(intl), taxTypes).draft;
    expect(te.internationalClient).toEqual({ name: "John Smith", cedula: "" });
    expect(errorMap(checkDraft(te)).internationalClient).toBe("Indique el nombre y la identificación del cliente internacional.");
    expect(toDraft("fe", readDocumentForm(intl), taxTypes).draft.internationalClient).toBeUndefined();
  });

  it("credit days only on credit; dollars keep the typed rate", () => {
    const { draft } = toDraft("fe", readDocumentForm({ ...flat, sale_condition: "02", credit_days: "30", currency: "USD", exchange_rate: "505.5" }), taxTypes);
    expect(draft.creditDays).toBe(30);
    expect(draft.exchangeRate).toBe("505.5");
    const cash = toDraft("fe", readDocumentForm({ ...flat, credit_days: "30" }), taxTypes).draft;
    expect(cash.creditDays).toBeUndefined();
  });

  it("no lines, missing tax type and description, and range errors keyed by row", () => {
    const empty = toDraft("fe", readDocumentForm({ client_id: "5" }), taxTypes).draft;
    expect(errorMap(checkDraft(empty)).lines).toBe("El documento debe contener minimo un artículo.");
    const bad = readDocumentForm({ client_id: "5", "lines[0].quantity": "0", "lines[0].price": "10", "lines[0].discount": "150", "lines[0].taxTypeId": "99" });
    const { draft, errors } = toDraft("fe", bad, taxTypes);
    const map = errorMap([...errors, ...checkDraft(draft)]);
    expect(map["lines.0.tax"]).toBe(FORM_MESSAGES.taxTypeRequired);
    expect(map["lines.0.description"]).toBe(FORM_MESSAGES.descriptionRequired);
    expect(map["lines.0.quantity"]).toBe("La cantidad debe estar entre 0,1 y 100.000.");
    expect(map["lines.0.discountPercent"]).toBe("El descuento debe estar entre 0 y 100.");
  });

  it("an item pick fills the row once; an unknown item is an error on its row", () => {
    const picked = applyItemPicks(readDocumentForm({ "lines[0].itemId": "7", "lines[0].quantity": "1" }), items);
    expect(picked.errors).toEqual([]);
    expect(picked.form.lines[0]).toMatchObject({ picked: "7", code: "LAP-14", cabys: "4523000000100", price: "450.000,00", taxTypeId: "11", unit: "Unid" });
    // Already picked: what was typed afterwards is kept.
    const kept = applyItemPicks({ ...picked.form, lines: [{ ...picked.form.lines[0], price: "400000" }] }, items);
    expect(kept.form.lines[0].price).toBe("400000");
    const foreign = applyItemPicks(readDocumentForm({ "lines[0].itemId": "999" }), items);
    expect(foreign.errors).toEqual([{ field: "lines.0.itemId", message: FORM_MESSAGES.itemNotFound }]);
  });
});

describe("'Otros' (code 99): the description Hacienda requires", () => {
  const otros = { ...flat, sale_condition: "99", sale_condition_other: " Permuta de servicios ", "payments[0].code": "99", "payments[0].other": " Canje " };

  it("are read, carried into the draft and the comprobante (CondicionVentaOtros, MedioPagoOtros) and come back into the form", () => {
    const form = readDocumentForm(otros);
    expect(form.saleConditionOther).toBe("Permuta de servicios");
    expect(form.payments).toEqual([{ code: "99", amount: "", other: "Canje" }]);
    const { draft, errors } = toDraft("fe", form, taxTypes);
    expect([...errors, ...checkDraft(draft)]).toEqual([]);
    expect(draft).toMatchObject({ saleCondition: "99", saleConditionOther: "Permuta de servicios", payments: [{ code: "99", other: "Canje" }] });
    const issuer = { name: "Emisor", idType: "02" as const, idNumber: "3101123456" };
    const doc = draftToComprobante(draft, { issuer, client: { ...issuer, idNumber: "3102654321" }, clave: "5".repeat(50), consecutivo: "0".repeat(20), issuedAt: new Date(), providerId: "3101123456" });
    expect(doc.saleConditionOther).toBe("Permuta de servicios");
    expect(doc.payments).toEqual([{ code: "99", other: "Canje" }]);
    const back = formValuesFromDraft(draft, taxTypes, items, { keepNote: true, keepRate: false });
    expect(back.saleConditionOther).toBe("Permuta de servicios");
    expect(back.payments).toEqual([{ code: "99", amount: "", other: "Canje" }]);
  });

  it("are required only with 99, within Hacienda's lengths (5–100 and 3–100), the error next to the field", () => {
    const check = (over: Record<string, string>) => errorMap(checkDraft(toDraft("fe", readDocumentForm({ ...otros, ...over }), taxTypes).draft));
    expect(check({ sale_condition_other: "", "payments[0].other": "" })).toEqual({ saleConditionOther: DRAFT_MESSAGES.saleConditionOther, "payments.0.other": DRAFT_MESSAGES.paymentOther });
    expect(check({ sale_condition_other: "Rifa", "payments[0].other": "Ok" })).toEqual({ saleConditionOther: DRAFT_MESSAGES.saleConditionOther, "payments.0.other": DRAFT_MESSAGES.paymentOther });
    expect(check({ sale_condition_other: "Trueque", "payments[0].other": "Oro" })).toEqual({});
    expect(DRAFT_MESSAGES.saleConditionOther).toBe("Con la condición de venta 'Otros', describa la condición (de 5 a 100 caracteres).");
    // Another code: the description is neither required nor carried.
    const cash = toDraft("fe", readDocumentForm({ ...flat, sale_condition_other: "x", "payments[0].other": "x" }), taxTypes).draft;
    expect(checkDraft(cash)).toEqual([]);
    expect(cash.saleConditionOther).toBeUndefined();
    expect(cash.payments).toEqual([{ code: "01" }]);
  });
});

describe("item rows (part 2 §5): blank rows and the 0.1 minimum price", () => {
  const row = (i: number, over: Record<string, string>) => Object.fromEntries(Object.entries({ description: "", price: "", quantity: "1", unit: "Unid", discount: "0", taxTypeId: "11", cabys: "", ...over }).map(([k, v]) => [`lines[${i}].${k}`, v]));
  const full = { description: "Consultoría", price: "1000", cabys: "8313100000000" };
  const errorsOf = (values: Record<string, string>) => {
    const { draft, errors } = toDraft("fe", readDocumentForm({ client_id: "5", ...values }), taxTypes);
    return { draft, map: errorMap([...errors, ...checkDraft(draft)]) };
  };

  it("a blank row (no name, no price) is left out when another row has a name and a price of at least 0.1", () => {
    const { draft, map } = errorsOf({ ...row(0, {}), ...row(1, full), ...row(2, {}) });
    expect(map).toEqual({});
    expect(draft.lines.map((l) => l.description)).toEqual(["Consultoría"]);
    const form = readDocumentForm({ ...row(0, {}), ...row(1, { ...full, price: "0.1" }) });
    expect(isBlankLine(form.lines[0])).toBe(true);
    expect(withoutBlankLines(form).lines).toHaveLength(1);
  });

  it("with no complete row, a blank row is checked: name and price are asked for", () => {
    const { map } = errorsOf(row(0, {}));
    expect(map["lines.0.description"]).toBe(FORM_MESSAGES.descriptionRequired);
    expect(map["lines.0.unitPrice"]).toBe(DRAFT_MESSAGES.priceRange);
    // A price of 0 does not make a row complete: the blank row stays and is checked too.
    const zero = errorsOf({ ...row(0, { ...full, price: "0" }), ...row(1, {}) });
    expect(zero.map["lines.0.unitPrice"]).toBe("El precio debe estar entre 0,1 y 1.000.000.000.000.");
    expect(zero.map["lines.1.description"]).toBe(FORM_MESSAGES.descriptionRequired);
  });

  it("a row partly filled is always checked: price minimum 0.1", () => {
    const partly = errorsOf({ ...row(0, full), ...row(1, { description: "Viáticos" }) });
    expect(partly.map).toEqual({ "lines.1.unitPrice": DRAFT_MESSAGES.priceRange });
    const noName = errorsOf({ ...row(0, full), ...row(1, { price: "0.05" }) });
    expect(noName.map).toEqual({ "lines.1.description": FORM_MESSAGES.descriptionRequired, "lines.1.unitPrice": DRAFT_MESSAGES.priceRange });
    // A row with only its item chosen, a code or an exoneration typed is not blank either.
    expect(isBlankLine({ ...blankLine("11"), code: "X-1" })).toBe(false);
    expect(isBlankLine({ ...blankLine("11"), exNumber: "AL-1" })).toBe(false);
    expect(errorsOf({ ...row(0, full), ...row(1, { description: "Viáticos", price: "0.1" }) }).map).toEqual({});
  });
});

describe("exoneration on a row", () => {
  const ex = {
    ...flat,
    "lines[0].exType": "99",
    "lines[0].exTypeOther": "Ley 7210 de zonas francas",
    "lines[0].exNumber": " AL-1234-2026 ",
    "lines[0].exInstitution": "01",
    "lines[0].exDate": "2026-03-01",
    "lines[0].exPercent": "6.5",
  };

  it("a row with any exoneration field carries one; the draft maps it and the totals subtract it", () => {
    const form = readDocumentForm(ex);
    expect(hasExoneration(form.lines[0])).toBe(true);
    expect(hasExoneration(form.lines[1])).toBe(false);
    const { draft } = toDraft("fe", form, taxTypes);
    expect(checkDraft(draft)).toEqual([]);
    expect(draft.lines[0].exoneration).toEqual({ docType: "99", docTypeOther: "Ley 7210 de zonas francas", number: "AL-1234-2026", institution: "01", issuedAt: "2026-03-01", percentage: "6.5" });
    expect(draft.lines[1].exoneration).toBeUndefined();
    // 855,000 taxable × 6.5 points = 55,575 exonerated of the 111,150 IVA.
    expect(draftTotals(draft).resumen.totalComprobante).toBe(String(1226150 - 55575) + ".00000");
  });

  it("rules: a rate of 0, a percentage above the rate or with 3 decimals, 'Otros' without text, a short number", () => {
    const check = (over: Record<string, string>) => errorMap(checkDraft(toDraft("fe", readDocumentForm({ ...ex, ...over }), [...taxTypes, { id: 13, name: "Exento", rate: "0", taxCode: "01", vatCode: "01" }]).draft));
    expect(check({ "lines[0].taxTypeId": "13" })["lines.0.exoneration"]).toBe("La exoneración solo aplica cuando la tarifa del impuesto es mayor que 0.");
    expect(check({ "lines[0].exPercent": "13.5" })["lines.0.exoneration.percentage"]).toBe("El porcentaje de exoneración debe estar entre 0 y la tarifa del impuesto.");
    expect(check({ "lines[0].exPercent": "6.505" })["lines.0.exoneration.percentage"]).toBeDefined();
    expect(check({ "lines[0].exTypeOther": "Ley" })["lines.0.exoneration.other"]).toMatch(/^Con 'Otros'/);
    expect(check({ "lines[0].exInstitution": "99" })["lines.0.exoneration.other"]).toMatch(/^Con 'Otros'/);
    expect(check({ "lines[0].exNumber": "A1" })["lines.0.exoneration.number"]).toBe("El número del documento de exoneración debe tener entre 3 y 40 caracteres.");
    expect(check({ "lines[0].exType": "55" })["lines.0.exoneration"]).toBe("Complete el tipo, número, fecha e institución de la exoneración.");
    expect(check({ "lines[0].exDate": "01/03/2026" })["lines.0.exoneration"]).toBe("Complete el tipo, número, fecha e institución de la exoneración.");
  });

  it("a stored draft with an exoneration comes back into the form (clone, note, replacement)", () => {
    const { draft } = toDraft("fe", readDocumentForm(ex), taxTypes);
    const back = formValuesFromDraft(draft, taxTypes, items, { keepNote: true, keepRate: false });
    expect(back.lines[0]).toMatchObject({ exType: "99", exTypeOther: "Ley 7210 de zonas francas", exNumber: "AL-1234-2026", exInstitution: "01", exDate: "2026-03-01", exPercent: "6,5" });
    expect(hasExoneration(back.lines[1])).toBe(false);
  });
});

describe("the form's units", () => {
  it("are Hacienda units with Hacienda's descriptions, each once", () => {
    const official = new Map<string, string>(unitsOfMeasure.map((u) => [u.symbol, u.description]));
    for (const [symbol, description] of FORM_UNITS) expect([symbol, official.get(symbol)]).toEqual([symbol, description]);
    expect(new Set(FORM_UNITS.map(([s]) => s)).size).toBe(FORM_UNITS.length);
    expect(FORM_UNITS[0][0]).toBe(blankLine().unit);
  });
});

describe("credit terms", () => {
  it("merge Hacienda's usual terms and the company's, one per number of days, by days, without Contado", () => {
    const terms = offeredCreditTerms([{ name: "Contado", days: 0 }, { name: "30 días", days: 30 }, { name: "8 días", days: 8 }], [{ name: "Quincena", days: 15 }, { name: "Mes", days: 30 }]);
    expect(terms).toEqual([{ name: "8 días", days: 8 }, { name: "Quincena", days: 15 }, { name: "30 días", days: 30 }]);
  });
  it("keep a value already on the form that is not offered", () => {
    expect(creditTermOptions([{ name: "8 días", days: 8 }], "20")).toEqual([{ value: "8", label: "8 días" }, { value: "20", label: "20 días" }]);
    expect(creditTermOptions([{ name: "8 días", days: 8 }], "")).toEqual([{ value: "8", label: "8 días" }]);
  });
  it("read a new term: name required, whole days 1 to 365", () => {
    expect(readCreditTerm({ new_term_name: " Mes ", new_term_days: "31" }).term).toEqual({ name: "Mes", days: 31 });
    for (const days of ["0", "366", "1.5", "-3", "", "abc"]) expect(readCreditTerm({ new_term_name: "X", new_term_days: days }).errors.map((e) => e.field)).toEqual(["newTermDays"]);
    expect(readCreditTerm({ new_term_name: "", new_term_days: "10" }).errors.map((e) => e.field)).toEqual(["newTermName"]);
  });
});

describe("students (school plan)", () => {
  const ana = { id: 4, name: "Ana Rojas", clientId: 9, representative: "Juan Rojas" };
  it("a choice 's:<id>' names one of the offered students; anything else is not a student choice", () => {
    expect(chosenStudent("s:4", [ana])).toBe(ana);
    expect(chosenStudent("s:5", [ana])).toBeNull();
    expect(chosenStudent("s:4", null)).toBeNull();
    expect(chosenStudent("9", [ana])).toBeUndefined();
    expect(chosenStudent("s:4x", [ana])).toBeUndefined();
  });
  it("billed to the representative, the student's name opening the note once", () => {
    const form = readDocumentForm({ client_id: "s:4", note: "Marzo" });
    const billed = billedToRepresentative(form, ana);
    expect(billed).toMatchObject({ clientId: "9", note: "Estudiante: Ana Rojas\nMarzo" });
    expect(billedToRepresentative(billed, ana).note).toBe("Estudiante: Ana Rojas\nMarzo");
    expect(billedToRepresentative({ ...form, note: "" }, ana).note).toBe("Estudiante: Ana Rojas");
  });
});
