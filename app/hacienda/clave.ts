/**
 * Clave (50 characters) and NumeroConsecutivo (20 digits) of Hacienda v4.4 comprobantes
 * (Anexos y Estructuras v4.4, Nota 3/4.1; see shared/hacienda/NOTES.md §4).
 *
 * Consecutivo: branch(3) + terminal(5) + docType(2) + sequence(10).
 * Clave: "506" + day(2) + month(2) + year(2) + issuerId(12) + consecutivo(20) + situación(1) + securityCode(8).
 * Day/month/year are those of the issue instant in America/Costa_Rica, never the server zone.
 */

import { CEDULA_JURIDICA } from "../domain/identification.ts";

export const DOC_TYPE_CODES = {
  fe: "01",
  nd: "02",
  nc: "03",
  te: "04",
  /** MensajeReceptor: confirmación de aceptación. */
  mr_accept: "05",
  /** MensajeReceptor: aceptación parcial. */
  mr_partial: "06",
  /** MensajeReceptor: rechazo. */
  mr_reject: "07",
  fec: "08",
  fee: "09",
  rep: "10",
} as const;

export type DocTypeCode = (typeof DOC_TYPE_CODES)[keyof typeof DOC_TYPE_CODES];
export const DOC_TYPE_CODE_SET: ReadonlySet<string> = new Set(Object.values(DOC_TYPE_CODES));

export type Situacion = 1 | 2 | 3;

export class ClaveError extends Error {
  constructor(
    public field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ConsecutivoParts {
  branch: number;
  terminal: number;
  docType: DocTypeCode;
  sequence: number;
}

function pad(n: number, width: number, field: string, what: string): string {
  if (!Number.isInteger(n) || n < 0 || String(n).length > width)
    throw new ClaveError(field, `El campo ${field} debe ser ${what} entre 0 y ${"9".repeat(width)} (recibido: ${n}).`);
  return String(n).padStart(width, "0");
}

/** 20-digit NumeroConsecutivo. Sequence starts at 1. */
export function buildConsecutivo(p: ConsecutivoParts): string {
  if (!DOC_TYPE_CODE_SET.has(p.docType))
    throw new ClaveError("docType", `El tipo de documento "${p.docType}" no existe: use un código de 01 a 10.`);
  if (p.sequence < 1) throw new ClaveError("sequence", "El número consecutivo debe ser 1 o mayor.");
  return (
    pad(p.branch, 3, "Sucursal", "un número entero") +
    pad(p.terminal, 5, "Terminal", "un número entero") +
    p.docType +
    pad(p.sequence, 10, "Consecutivo", "un número entero")
  );
}

export function parseConsecutivo(s: string): ConsecutivoParts {
  if (!/^\d{20}$/.test(s)) throw new ClaveError("NumeroConsecutivo", `El NumeroConsecutivo "${s}" debe tener exactamente 20 dígitos.`);
  const docType = s.slice(8, 10);
  if (!DOC_TYPE_CODE_SET.has(docType))
    throw new ClaveError("NumeroConsecutivo", `El NumeroConsecutivo "${s}" tiene un tipo de documento inválido (${docType}).`);
  return {
    branch: Number(s.slice(0, 3)),
    terminal: Number(s.slice(3, 8)),
    docType: docType as DocTypeCode,
    sequence: Number(s.slice(10, 20)),
  };
}

export type IdType = "01" | "02" | "03" | "04" | "05" | "06";

/**
 * Pads an issuer identification to the 12 positions of the clave (NOTES §4, A44 p.67 nota 4.1):
 * física (9 digits), jurídica (10), DIMEX (11 or 12), NITE (10) are left-padded with zeros. Since
 * the 2026 revision (ClaveType [a-zA-Z0-9]{50}) a cédula jurídica may carry capital letters in its
 * last six positions (Registro Nacional's alphanumeric form, e.g. 3-101-A00001): docs/decisions/133.
 */
export function padIssuerId(id: string, type?: IdType): string {
  const digits = id.replace(/[-\s]/g, "");
  const alphanumeric = type === "02" && CEDULA_JURIDICA.test(digits);
  if (!alphanumeric && !/^\d+$/.test(digits))
    throw new ClaveError(
      "Identificacion",
      type === "02"
        ? `La cédula jurídica del emisor "${id}" debe tener 4 dígitos y luego 6 dígitos o letras mayúsculas.`
        : `La identificación del emisor "${id}" debe contener solo dígitos.`,
    );
  const expected: Record<string, number[]> = { "01": [9], "02": [10], "03": [11, 12], "04": [10] };
  if (type && expected[type] && !expected[type].includes(digits.length))
    throw new ClaveError(
      "Identificacion",
      `La identificación del emisor "${id}" debe tener ${expected[type].join(" o ")} dígitos para el tipo ${type}.`,
    );
  if (digits.length > 12) throw new ClaveError("Identificacion", `La identificación del emisor "${id}" tiene más de 12 dígitos.`);
  return digits.padStart(12, "0");
}

const crDateFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Costa_Rica",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** Calendar parts of an instant in America/Costa_Rica. */
export function costaRicaParts(at: Date): { year: string; month: string; day: string; hour: string; minute: string; second: string } {
  if (Number.isNaN(at.getTime())) throw new ClaveError("FechaEmision", "La fecha de emisión no es válida.");
  const parts: Record<string, string> = {};
  for (const p of crDateFormat.formatToParts(at)) parts[p.type] = p.value;
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/**
 * The instant as Hacienda's FechaEmision: local Costa Rica time with the fixed −06:00 offset
 * (Costa Rica has no daylight-saving time), e.g. 2026-11-21T23:59:59-06:00.
 */
export function formatFechaEmision(at: Date): string {
  const p = costaRicaParts(at);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}-06:00`;
}

export interface ClaveInput {
  issuedAt: Date;
  /** Issuer identification digits (padded to 12 here). */
  issuerId: string;
  issuerIdType?: IdType;
  consecutivo: string;
  situacion: Situacion;
  /** 8 digits. */
  securityCode: string;
}

export function buildClave(c: ClaveInput): string {
  parseConsecutivo(c.consecutivo);
  if (![1, 2, 3].includes(c.situacion))
    throw new ClaveError("situacion", `La situación del comprobante debe ser 1 (normal), 2 (contingencia) o 3 (sin internet).`);
  if (!/^\d{8}$/.test(c.securityCode))
    throw new ClaveError("securityCode", `El código de seguridad "${c.securityCode}" debe tener exactamente 8 dígitos.`);
  const p = costaRicaParts(c.issuedAt);
  return `506${p.day}${p.month}${p.year.slice(-2)}${padIssuerId(c.issuerId, c.issuerIdType)}${c.consecutivo}${c.situacion}${c.securityCode}`;
}

export interface ClaveParts {
  country: string;
  day: number;
  month: number;
  /** Two-digit year as written (e.g. 26). */
  year: number;
  issuerId: string;
  consecutivo: string;
  consecutivoParts: ConsecutivoParts;
  situacion: Situacion;
  securityCode: string;
}

export function parseClave(s: string): ClaveParts {
  // The 2026 schema revision allows letters in the clave (ClaveType [a-zA-Z0-9]{50}); the date,
  // consecutivo and situación positions must still be digits.
  if (!/^[a-zA-Z0-9]{50}$/.test(s)) throw new ClaveError("Clave", `La clave "${s}" debe tener exactamente 50 caracteres (letras o dígitos).`);
  if (!s.startsWith("506")) throw new ClaveError("Clave", `La clave "${s}" debe iniciar con 506 (código de país de Costa Rica).`);
  if (!/^\d{6}$/.test(s.slice(3, 9)) || !/^\d$/.test(s[41]))
    throw new ClaveError("Clave", `La clave "${s}" tiene una fecha o situación que no son dígitos.`);
  const day = Number(s.slice(3, 5));
  const month = Number(s.slice(5, 7));
  if (month < 1 || month > 12 || day < 1 || day > 31) throw new ClaveError("Clave", `La clave "${s}" tiene una fecha inválida.`);
  const situacion = Number(s[41]);
  if (situacion < 1 || situacion > 3) throw new ClaveError("Clave", `La clave "${s}" tiene una situación inválida (${s[41]}).`);
  const consecutivo = s.slice(21, 41);
  return {
    country: "506",
    day,
    month,
    year: Number(s.slice(7, 9)),
    issuerId: s.slice(9, 21),
    consecutivo,
    consecutivoParts: parseConsecutivo(consecutivo),
    situacion: situacion as Situacion,
    securityCode: s.slice(42, 50),
  };
}

/**
 * 8-digit security code from an injected random source (e.g. `crypto.randomBytes`). Uses
 * rejection sampling so every code is equally likely.
 */
export function randomSecurityCode(randomBytes: (n: number) => Uint8Array): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const b = randomBytes(4);
    if (b.length < 4) throw new Error("randomBytes returned too few bytes");
    const n = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
    if (n < 4_200_000_000) return String(n % 100_000_000).padStart(8, "0");
  }
  throw new Error("randomBytes is not random");
}
