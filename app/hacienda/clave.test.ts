import { describe, expect, it } from "vitest";
import {
  buildClave,
  buildConsecutivo,
  ClaveError,
  formatFechaEmision,
  padIssuerId,
  parseClave,
  parseConsecutivo,
  randomSecurityCode,
} from "./clave.ts";

describe("consecutivo", () => {
  it("builds and parses the 20 digits", () => {
    const c = buildConsecutivo({ branch: 1, terminal: 1, docType: "01", sequence: 42 });
    expect(c).toBe("00100001010000000042");
    expect(parseConsecutivo(c)).toEqual({ branch: 1, terminal: 1, docType: "01", sequence: 42 });
  });
  it("round-trips every document type", () => {
    for (const docType of ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10"] as const) {
      const parts = { branch: 999, terminal: 99999, docType, sequence: 9999999999 };
      expect(parseConsecutivo(buildConsecutivo(parts))).toEqual(parts);
    }
  });
  it("rejects out-of-range parts and bad strings with Spanish messages", () => {
    expect(() => buildConsecutivo({ branch: 1000, terminal: 1, docType: "01", sequence: 1 })).toThrow(/Sucursal/);
    expect(() => buildConsecutivo({ branch: 1, terminal: 1, docType: "11" as never, sequence: 1 })).toThrow(/tipo de documento/);
    expect(() => buildConsecutivo({ branch: 1, terminal: 1, docType: "01", sequence: 0 })).toThrow(ClaveError);
    expect(() => buildConsecutivo({ branch: 1, terminal: 1, docType: "01", sequence: 10_000_000_000 })).toThrow(/Consecutivo/);
    expect(() => parseConsecutivo("0010000101000000004")).toThrow(/20 dígitos/);
    expect(() => parseConsecutivo("00100001990000000042")).toThrow(/tipo de documento/);
  });
});

describe("padIssuerId", () => {
  it("pads per identification type", () => {
    expect(padIssuerId("114480790", "01")).toBe("000114480790");
    expect(padIssuerId("3-101-123456", "02")).toBe("003101123456");
    expect(padIssuerId("17205555555", "03")).toBe("017205555555");
    expect(padIssuerId("172055555555", "03")).toBe("172055555555");
    expect(padIssuerId("3002123456", "04")).toBe("003002123456");
  });
  it("rejects wrong lengths for the type", () => {
    expect(() => padIssuerId("12345678", "01")).toThrow(/9 dígitos/);
    expect(() => padIssuerId("31011234567", "02")).toThrow(/10 dígitos/);
    expect(() => padIssuerId("12a", "01")).toThrow(/solo dígitos/);
  });
});

describe("clave", () => {
  const base = { issuerId: "3101123456", issuerIdType: "02" as const, consecutivo: "00100001010000000042", situacion: 1 as const, securityCode: "12345678" };

  it("has the documented positions", () => {
    const clave = buildClave({ ...base, issuedAt: new Date("2026-11-22T15:00:00Z") });
    expect(clave).toHaveLength(50);
    expect(clave).toBe("506" + "22" + "11" + "26" + "003101123456" + "00100001010000000042" + "1" + "12345678");
    const p = parseClave(clave);
    expect(p).toMatchObject({ country: "506", day: 22, month: 11, year: 26, issuerId: "003101123456", consecutivo: base.consecutivo, situacion: 1, securityCode: "12345678" });
    expect(p.consecutivoParts).toEqual({ branch: 1, terminal: 1, docType: "01", sequence: 42 });
  });

  it("takes the date in Costa Rica around midnight (UTC−6)", () => {
    // 05:59:59Z is 23:59:59 of the 21st in Costa Rica; 06:00:00Z is 00:00:00 of the 22nd.
    expect(parseClave(buildClave({ ...base, issuedAt: new Date("2026-11-22T05:59:59Z") })).day).toBe(21);
    expect(parseClave(buildClave({ ...base, issuedAt: new Date("2026-11-22T06:00:00Z") })).day).toBe(22);
    // New year: 2027-01-01T05:59:59Z is still 31 Dec 2026 in Costa Rica.
    const ny = parseClave(buildClave({ ...base, issuedAt: new Date("2027-01-01T05:59:59Z") }));
    expect([ny.day, ny.month, ny.year]).toEqual([31, 12, 26]);
    expect(formatFechaEmision(new Date("2026-11-22T05:59:59Z"))).toBe("2026-11-21T23:59:59-06:00");
    expect(formatFechaEmision(new Date("2026-11-22T06:00:00Z"))).toBe("2026-11-22T00:00:00-06:00");
  });

  it("ignores the process time zone", () => {
    const saved = process.env.TZ;
    try {
      for (const tz of ["Asia/Tokyo", "UTC", "Pacific/Kiritimati", "America/Los_Angeles"]) {
        process.env.TZ = tz;
        expect(buildClave({ ...base, issuedAt: new Date("2026-11-22T05:59:59Z") }).slice(3, 9)).toBe("211126");
        expect(formatFechaEmision(new Date("2026-11-22T06:00:00Z"))).toBe("2026-11-22T00:00:00-06:00");
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it("rejects malformed input", () => {
    expect(() => buildClave({ ...base, issuedAt: new Date("2026-11-22T15:00:00Z"), securityCode: "1234" })).toThrow(/8 dígitos/);
    expect(() => buildClave({ ...base, issuedAt: new Date("2026-11-22T15:00:00Z"), situacion: 4 as never })).toThrow(/situación/);
    expect(() => buildClave({ ...base, issuedAt: new Date("invalid") })).toThrow(/fecha/);
    expect(() => parseClave("506".padEnd(49, "0"))).toThrow(/50 caracteres/);
    expect(() => parseClave("506".padEnd(49, "0") + "-")).toThrow(/50 caracteres/);
    expect(() => parseClave("4" + "0".repeat(49))).toThrow(/506/);
  });
});

describe("randomSecurityCode", () => {
  it("uses the injected source and always gives 8 digits", () => {
    expect(randomSecurityCode(() => new Uint8Array([0, 0, 0, 7]))).toBe("00000007");
    expect(randomSecurityCode(() => new Uint8Array([0x05, 0xf5, 0xe1, 0x00]))).toBe("00000000"); // 100,000,000
    let calls = 0;
    const code = randomSecurityCode(() => (calls++ === 0 ? new Uint8Array([0xff, 0xff, 0xff, 0xff]) : new Uint8Array([0, 0, 1, 0])));
    expect(calls).toBe(2); // the biased top range is rejected
    expect(code).toBe("00000256");
  });
});
