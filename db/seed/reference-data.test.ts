import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as ref from "./reference-data.ts";
import { loadLocations, LOCATIONS_FILE } from "./locations.ts";

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const xsdDir = process.env.HACIENDA_XSD_DIR ?? resolve(repoRoot, "../shared/hacienda/xsd/v4.4-2026");

function readXsd(name: string): string {
  const file = resolve(xsdDir, name);
  if (!existsSync(file)) {
    throw new Error(`Hacienda XSD not found: ${file}. Set HACIENDA_XSD_DIR to the folder with the v4.4 (2026) schemas.`);
  }
  // FacturaElectronica_V4.4.xsd has CR-only line endings.
  return readFileSync(file, "utf8").replace(/\r\n?/g, "\n");
}

/** Enumeration values of a named simpleType or of the first restriction inside a named element. */
function enumeration(xsd: string, opener: RegExp): string[] {
  const start = xsd.search(opener);
  if (start < 0) throw new Error(`not found in XSD: ${opener}`);
  const end = xsd.indexOf("</xs:restriction>", start);
  return [...xsd.slice(start, end).matchAll(/<xs:enumeration value="([^"]*)"/g)].map((m) => m[1]);
}

function expectUnique<T>(rows: readonly T[], key: (r: T) => unknown, what: string) {
  const keys = rows.map(key);
  const dup = keys.filter((k, i) => keys.indexOf(k) !== i);
  expect(dup, `duplicate ${what}`).toEqual([]);
}

const codeTables = {
  identificationTypes: ref.identificationTypes,
  currencies: ref.currencies,
  countries: ref.countries,
  taxCodes: ref.taxCodes,
  vatRates: ref.vatRates,
  transactionTypes: ref.transactionTypes,
  paymentMethods: ref.paymentMethods,
  saleConditions: ref.saleConditions,
  referenceCodes: ref.referenceCodes,
  referenceDocumentTypes: ref.referenceDocumentTypes,
  discountCodes: ref.discountCodes,
  otherChargeTypes: ref.otherChargeTypes,
  exonerationTypes: ref.exonerationTypes,
  exonerationInstitutions: ref.exonerationInstitutions,
} as const;

const idOnlyTables = {
  unitsOfMeasure: ref.unitsOfMeasure,
  taxTypes: ref.taxTypes,
  paymentTerms: ref.paymentTerms,
  categories: ref.categories,
  emailProtocols: ref.emailProtocols,
  encryptions: ref.encryptions,
} as const;

describe("reference data: table invariants", () => {
  for (const [name, rows] of Object.entries({ ...codeTables, ...idOnlyTables })) {
    it(`${name}: positive integer ids, unique`, () => {
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows as readonly { id: number }[]) expect(Number.isInteger(r.id) && r.id > 0, `${name} id ${r.id}`).toBe(true);
      expectUnique(rows as readonly { id: number }[], (r) => r.id, `${name} id`);
    });
  }
  for (const [name, rows] of Object.entries(codeTables)) {
    it(`${name}: unique non-empty codes and names`, () => {
      const rs = rows as readonly { code: string; name: string }[];
      expectUnique(rs, (r) => r.code, `${name} code`);
      for (const r of rs) {
        expect(r.code).not.toBe("");
        expect(r.name.trim()).toBe(r.name);
        expect(r.name).not.toBe("");
      }
    });
  }
  it("Hacienda code tables: id is the numeric code, code is 2 digits", () => {
    const { identificationTypes, currencies: _currencies, countries: _countries, ...hacienda } = codeTables;
    for (const [name, rows] of Object.entries({ identificationTypes, ...hacienda })) {
      for (const r of rows as readonly { id: number; code: string }[]) {
        expect(r.code, name).toMatch(/^\d{2}$/);
        expect(r.id, `${name} ${r.code}`).toBe(Number(r.code));
      }
    }
  });
});

describe("reference data: key facts", () => {
  it("identification types 01–04 first with ids 1–4, 05/06 not for companies", () => {
    expect(ref.identificationTypes.slice(0, 4).map((r) => [r.id, r.code, r.name])).toEqual([
      [1, "01", "Cédula Física"],
      [2, "02", "Cédula Jurídica"],
      [3, "03", "DIMEX"],
      [4, "04", "NITE"],
    ]);
    expect(ref.identificationTypes.filter((r) => !r.forCompanies).map((r) => r.code)).toEqual(["05", "06"]);
  });

  it("currencies: USD id 1, CRC id 2, EUR id 3", () => {
    expect(ref.currencies).toEqual([
      { id: 1, code: "USD", name: "Dólar", symbol: "$" },
      { id: 2, code: "CRC", name: "Colón", symbol: "₡" },
      { id: 3, code: "EUR", name: "Euro", symbol: "€" },
    ]);
    expect(ref.CURRENCY_USD_ID).toBe(1);
    expect(ref.CURRENCY_CRC_ID).toBe(2);
  });

  it("countries: full ISO list, Costa Rica is id 60, alpha-2 codes", () => {
    expect(ref.countries.length).toBe(249);
    expect(ref.countries.find((c) => c.id === ref.COSTA_RICA_COUNTRY_ID)).toEqual({ id: 60, code: "CR", name: "Costa Rica" });
    for (const c of ref.countries) expect(c.code).toMatch(/^[A-Z]{2}$/);
    const byCode = new Map<string, string>(ref.countries.map((c) => [c.code, c.name]));
    for (const code of ["US", "MX", "PA", "NI", "GT", "SV", "HN", "BZ", "CO", "VE", "EC", "PE", "BR", "AR", "CL", "CA", "ES", "CN", "DE", "JP"]) {
      expect(byCode.has(code), code).toBe(true);
    }
    expect(byCode.get("ES")).toBe("España");
    expect(byCode.get("US")).toBe("Estados Unidos");
    expect(ref.countries.map((c) => c.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 249 }, (_, i) => i + 1));
  });

  it("vat rates 01–11 with rates and flags", () => {
    expect(ref.vatRates.map((r) => r.code)).toEqual(["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11"]);
    const byCode = Object.fromEntries(ref.vatRates.map((r) => [r.code, r]));
    expect(byCode["08"].rate).toBe("13.00");
    expect(byCode["09"].rate).toBe("0.50");
    expect(byCode["07"].rate).toBe("8.00");
    for (const r of ref.vatRates) expect(r.rate).toMatch(/^\d+\.\d{2}$/);
    expect(ref.vatRates.filter((r) => r.exempt).map((r) => r.code)).toEqual(["10"]);
    expect(ref.vatRates.filter((r) => r.noSujeto).map((r) => r.code)).toEqual(["11"]);
    expect(ref.vatRates.filter((r) => r.notesOnly).map((r) => r.code)).toEqual(["05", "06", "07"]);
  });

  it("tax types point at existing vat codes with matching rates", () => {
    expect(ref.taxTypes[0]).toMatchObject({ name: "IVA 13%", rate: "13", vatCode: "08" });
    const vat = new Map<string, string>(ref.vatRates.map((r) => [r.code, r.rate]));
    for (const t of ref.taxTypes) {
      expect(vat.has(t.vatCode), t.name).toBe(true);
      expect(Number(vat.get(t.vatCode))).toBe(Number(t.rate));
    }
    expect(ref.taxTypes.find((t) => t.vatCode === "10")?.name).toBe("Exento");
    expect(ref.taxTypes.find((t) => t.vatCode === "11")?.name).toBe("No sujeto");
  });

  it("payment methods, sale conditions, payment terms", () => {
    expect(ref.paymentMethods.map((r) => r.code)).toEqual(["01", "02", "03", "04", "05", "06", "07", "99"]);
    expect(ref.saleConditions.map((r) => r.code)).toEqual(["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "99"]);
    expect(ref.saleConditions.filter((r) => r.repOnly).map((r) => r.code)).toEqual(["09", "11"]);
    expect(ref.paymentTerms.map((r) => r.days)).toEqual([0, 8, 15, 30, 45, 60, 90]);
  });

  it("reference codes and reference document types", () => {
    expect(ref.referenceCodes.map((r) => r.code)).toEqual(["01", "02", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "16", "17", "99"]);
    expect(ref.referenceCodes.filter((r) => r.repOnly).map((r) => r.code)).toEqual(["17"]);
    expect(ref.referenceDocumentTypes.map((r) => r.code)).toEqual([
      ...Array.from({ length: 20 }, (_, i) => String(i + 1).padStart(2, "0")),
      "99",
    ]);
  });

  it("categories and e-mail settings", () => {
    expect(ref.categories.map((c) => c.name)).toEqual(["Bienes", "Servicios"]);
    expect(ref.emailProtocols[0]).toEqual({ id: 1, name: "smtp" });
    expect(ref.encryptions.map((e) => e.name)).toEqual(["none", "ssl", "tls"]);
  });
});

describe("reference data matches the v4.4 (2026) XSD enumerations", () => {
  const fe = readXsd("FacturaElectronica_V4.4.xsd");
  const nc = readXsd("NotaCreditoElectronica_V4.4.xsd");
  const rep = readXsd("ReciboElectronicoPago_V4.4.xsd");
  const codes = (rows: readonly { code: string }[]) => rows.map((r) => r.code).sort();

  it("units of measure: same set of symbols as UnidadMedidaType, case-sensitive", () => {
    const xsdUnits = enumeration(fe, /<xs:simpleType name="UnidadMedidaType">/);
    expect(xsdUnits.length).toBe(101);
    const ours = ref.unitsOfMeasure.map((u) => u.symbol);
    expectUnique(ref.unitsOfMeasure, (u) => u.symbol, "unit symbol");
    expect([...ours].sort()).toEqual([...xsdUnits].sort());
    for (const pair of [["Cm", "cm"], ["h", "H"], ["S", "s"], ["T", "t"]]) for (const s of pair) expect(ours, s).toContain(s);
    expect(ref.unitsOfMeasure.find((u) => u.symbol === "Cm")?.description).toBe("Comisiones");
    expect(ref.unitsOfMeasure.find((u) => u.symbol === "cm")?.description).toBe("centímetro");
    expect(ref.unitsOfMeasure.filter((u) => u.service).map((u) => u.symbol).sort()).toEqual(["Al", "Alc", "Cm", "I", "Os", "Sp", "Spe", "St"]);
  });

  it("identification types = Identificacion/Tipo", () => {
    expect(codes(ref.identificationTypes)).toEqual(enumeration(fe, /<xs:element name="Tipo"[^>]*>(?=[\s\S]{0,800}Cedula Fisica)/).sort());
  });
  it("currencies are ISO codes the XSD accepts", () => {
    const xsdCurrencies = enumeration(fe, /<xs:element name="CodigoMoneda">/);
    for (const c of ref.currencies) expect(xsdCurrencies).toContain(c.code);
  });
  it("vat rates = CodigoTarifaIVAType", () => {
    expect(codes(ref.vatRates)).toEqual(enumeration(fe, /<xs:simpleType name="CodigoTarifaIVAType">/).sort());
  });
  it("tax codes = CodigoImpuestoType", () => {
    expect(codes(ref.taxCodes)).toEqual(enumeration(fe, /<xs:simpleType name="CodigoImpuestoType">/).sort());
  });
  it("transaction types = TipoTransaccionType", () => {
    expect(codes(ref.transactionTypes)).toEqual(enumeration(fe, /<xs:simpleType name="TipoTransaccionType">/).sort());
  });
  it("payment methods = TipoMedioPago", () => {
    expect(codes(ref.paymentMethods)).toEqual(enumeration(fe, /<xs:element name="TipoMedioPago"[^>]*>/).sort());
  });
  it("sale conditions = CondicionVenta of NC (all codes); REP codes are the repOnly ones", () => {
    expect(codes(ref.saleConditions)).toEqual(enumeration(nc, /<xs:element name="CondicionVenta">/).sort());
    expect(codes(ref.saleConditions.filter((r) => r.repOnly))).toEqual(enumeration(rep, /<xs:element name="CondicionVenta">/).sort());
  });
  it("reference codes = CodigoReferenciaType (REP schema, which adds 17)", () => {
    expect(codes(ref.referenceCodes)).toEqual(enumeration(rep, /<xs:simpleType name="CodigoReferenciaType">/).sort());
    expect(codes(ref.referenceCodes.filter((r) => !r.repOnly))).toEqual(enumeration(fe, /<xs:simpleType name="CodigoReferenciaType">/).sort());
  });
  it("reference document types = TipoDocReferenciaType", () => {
    expect(codes(ref.referenceDocumentTypes)).toEqual(enumeration(fe, /<xs:simpleType name="TipoDocReferenciaType">/).sort());
  });
  it("discount codes = CodigoDescuentoType", () => {
    expect(codes(ref.discountCodes)).toEqual(enumeration(fe, /<xs:simpleType name="CodigoDescuentoType">/).sort());
  });
  it("other charge types = TipoDocOtrosCargosType", () => {
    expect(codes(ref.otherChargeTypes)).toEqual(enumeration(fe, /<xs:simpleType name="TipoDocOtrosCargosType">/).sort());
  });
  it("exoneration types = TipoExoneracionType", () => {
    expect(codes(ref.exonerationTypes)).toEqual(enumeration(fe, /<xs:simpleType name="TipoExoneracionType">/).sort());
  });
  it("exoneration institutions = NombreInstitucion", () => {
    expect(codes(ref.exonerationInstitutions)).toEqual(enumeration(fe, /<xs:element name="NombreInstitucion">/).sort());
  });
});

describe("locations", () => {
  const loc = loadLocations();

  it("counts: 7 provinces, 84 cantons, 494 districts, 17,589 barrios", () => {
    expect(loc.provinces.length).toBe(7);
    expect(loc.cantons.length).toBe(84);
    expect(loc.districts.length).toBe(494);
    expect(loc.barrios.length).toBe(17589);
  });

  it("provinces 1–7 with their names", () => {
    expect(loc.provinces).toEqual([
      { number: 1, name: "San José" },
      { number: 2, name: "Alajuela" },
      { number: 3, name: "Cartago" },
      { number: 4, name: "Heredia" },
      { number: 5, name: "Guanacaste" },
      { number: 6, name: "Puntarenas" },
      { number: 7, name: "Limón" },
    ]);
  });

  it("codes are integers in range, unique, and every row has a parent", () => {
    const provinces = new Set(loc.provinces.map((p) => p.number));
    const cantons = new Set<string>();
    for (const c of loc.cantons) {
      expect(provinces.has(c.provinceNumber)).toBe(true);
      expect(Number.isInteger(c.number) && c.number >= 1 && c.number <= 99).toBe(true);
      const k = `${c.provinceNumber}-${c.number}`;
      expect(cantons.has(k), `duplicate canton ${k}`).toBe(false);
      cantons.add(k);
    }
    const districts = new Set<string>();
    for (const d of loc.districts) {
      expect(cantons.has(`${d.provinceNumber}-${d.cantonNumber}`)).toBe(true);
      expect(Number.isInteger(d.number) && d.number >= 1 && d.number <= 99).toBe(true);
      const k = `${d.provinceNumber}-${d.cantonNumber}-${d.number}`;
      expect(districts.has(k), `duplicate district ${k}`).toBe(false);
      districts.add(k);
    }
    for (const b of loc.barrios) expect(districts.has(`${b.provinceNumber}-${b.cantonNumber}-${b.districtNumber}`)).toBe(true);
  });

  it("names are trimmed, non-empty and free of mojibake", () => {
    const names = [...loc.provinces, ...loc.cantons, ...loc.districts, ...loc.barrios].map((r) => r.name);
    for (const n of names) {
      expect(n).not.toBe("");
      expect(n.trim()).toBe(n);
      expect(/Ã|Â|\uFFFD|\s{2}/.test(n), n).toBe(false);
    }
  });

  it("spot checks", () => {
    expect(loc.cantons.find((c) => c.provinceNumber === 1 && c.number === 1)?.name).toBe("San José");
    expect(loc.cantons.find((c) => c.provinceNumber === 2 && c.number === 16)?.name).toBe("Río Cuarto");
    expect(loc.districts.find((d) => d.provinceNumber === 1 && d.cantonNumber === 1 && d.number === 1)?.name).toBe("Carmen");
    expect(loc.barrios[0]).toEqual({ provinceNumber: 1, cantonNumber: 1, districtNumber: 1, name: "Amón" });
  });

  it("the JSON stays compact (no Odoo ids)", () => {
    const text = readFileSync(LOCATIONS_FILE, "utf8");
    expect(text).not.toMatch(/state_|county_|district_|neighborhood_/);
    expect(statSync(LOCATIONS_FILE).size).toBeLessThan(600_000);
  });
});
