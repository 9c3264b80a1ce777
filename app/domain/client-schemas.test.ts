import { describe, expect, it } from "vitest";
import { activityLookupCheck, activityRequired, clientFormObject, clientSchema, contactFields, identificationError, readContacts } from "./client-schemas.ts";

describe("client identification per type (spec part 1 §5, the stricter reading)", () => {
  it.each([
    [1, "109870654", null],
    [1, "10987065", "La cédula física debe tener exactamente 9 dígitos"],
    [2, "3101123456", null],
    [2, "310112345", "La cédula jurídica debe tener exactamente 10 dígitos"],
    [3, "12345678901", null],
    [3, "123456789012", null],
    [3, "1234567890", "El DIMEX debe tener entre 11 y 12 dígitos"],
    [4, "1234567890", null],
    [4, "123456789", "El NITE debe tener exactamente 10 dígitos"],
    [1, "1-0987-0654", "La identificación solo admite números"],
  ])("type %i, %s", (type, id, message) => expect(identificationError(type, id)).toBe(message));
});

describe("contacts and activity rules", () => {
  it("round-trips contact rows through flat fields", () => {
    const rows = [
      { name: "Ana", email: "ana@x.cr", workstation: "Compras", send_copy: "on" },
      { name: "", email: "", workstation: "", send_copy: "" },
    ];
    expect(readContacts(contactFields(rows))).toEqual(rows);
    expect(readContacts({})).toHaveLength(1);
  });

  it("activity: required for providers, on /new-client and in detail for non-02, optional in the dialog", () => {
    expect(activityRequired({ mode: "dialog", provider: true }, 2)).toBe(true);
    expect(activityRequired({ mode: "dialog", provider: false }, 1)).toBe(false);
    expect(activityRequired({ mode: "new", provider: false }, 1)).toBe(true);
    expect(activityRequired({ mode: "new", provider: false }, 2)).toBe(false);
    expect(activityRequired({ mode: "detail", provider: false }, 3)).toBe(true);
  });

  it("lookup preconditions", () => {
    expect(activityLookupCheck("", "")).toBe("Ingrese tipo y número de identificación");
    expect(activityLookupCheck("1", "109870654")).toBe("La búsqueda de actividades aplica solo para personas jurídicas (02)");
    expect(activityLookupCheck("2", "3101123456")).toBeNull();
  });

  it("drops location outside country 60 and empty contact rows", () => {
    const parsed = clientSchema({ mode: "dialog", provider: false }).parse(
      clientFormObject({
        name: "X",
        identification_type: "1",
        identification: "109870654",
        email: "x@x.cr",
        phone: "8888",
        address: "Managua",
        country: "52",
        province: "1",
        contact_count: "2",
        contact_name_0: "A",
        contact_email_0: "a@x.cr",
      }),
    );
    expect(parsed.province).toBeNull();
    expect(parsed.contacts).toHaveLength(1);
  });
});

describe("issue 11: CIIU 4 activity codes and alphanumeric cédulas jurídicas", () => {
  const form = (over: Record<string, string>) =>
    clientFormObject({
      name: "Empresa",
      identification_type: "2",
      identification: "3101123456",
      email: "x@x.cr",
      phone: "8888",
      address: "Del parque 100 m norte",
      country: "52",
      contact_count: "1",
      contact_name_0: "A",
      contact_email_0: "a@x.cr",
      ...over,
    });
  const errorsOf = (over: Record<string, string>, stored?: string) => {
    const r = clientSchema({ mode: "dialog", provider: false, storedActivityCode: stored }).safeParse(form(over));
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
  };

  it("accepts a CIIU 4 code (and reads 62010 as 6201.0), refuses an old six-digit one unless it is the stored one", () => {
    expect(errorsOf({ economic_activity_code: "6201.0" })).toEqual({});
    expect(clientSchema({ mode: "dialog", provider: false }).parse(form({ economic_activity_code: "62010" })).economic_activity_code).toBe("6201.0");
    expect(errorsOf({ economic_activity_code: "722003" })).toEqual({ economic_activity_code: "La actividad económica debe tener un código CIIU 4 de la forma 0000.0 (por ejemplo 6201.0)" });
    expect(errorsOf({ economic_activity_code: "722003" }, "722003")).toEqual({});
    expect(errorsOf({ economic_activity_code: "960105" }, "722003")).toEqual({ economic_activity_code: "La actividad económica debe tener un código CIIU 4 de la forma 0000.0 (por ejemplo 6201.0)" });
  });

  it("a cédula jurídica may be alphanumeric (3101A00001); other types stay digits", () => {
    expect(identificationError(2, "3101A00001")).toBeNull();
    expect(identificationError(2, "31A1000001")).toBe("La cédula jurídica debe tener 10 caracteres sin guiones: 4 dígitos y luego 6 dígitos o letras mayúsculas (por ejemplo 3101123456 o 3101A00001)");
    expect(identificationError(1, "10987065A")).toBe("La identificación solo admite números");
    expect(errorsOf({ identification: "3101A00001" })).toEqual({});
  });
});
