/**
 * Errors raised by the Hacienda protocol library. `code` is stable and meant for programs
 * (logs, tests, mapping to HTTP answers); `message` is plain Spanish for the user and says
 * what to do next. Never put secrets (PIN, key material) in either.
 */
export type HaciendaErrorCode =
  // .p12 / llave criptográfica
  | "P12_WRONG_PIN"
  | "P12_NOT_PKCS12"
  | "P12_NO_PRIVATE_KEY"
  | "P12_NO_CERTIFICATE"
  | "P12_KEY_CERT_MISMATCH"
  | "P12_EXPIRED"
  | "P12_NOT_YET_VALID"
  | "P12_NOT_RSA"
  | "P12_WEAK_KEY"
  // signing
  | "SIGN_INVALID_INPUT"
  | "SIGN_ALREADY_SIGNED"
  | "SIGN_UNSUPPORTED_INPUT"
  // XML intake
  | "XML_TOO_LARGE"
  | "XML_EMPTY"
  | "XML_NOT_XML"
  | "XML_ENCODING"
  | "XML_DOCTYPE"
  | "XML_MALFORMED"
  | "XML_TOO_DEEP"
  | "XML_UNKNOWN_ROOT";

export class HaciendaError extends Error {
  readonly code: HaciendaErrorCode;

  constructor(code: HaciendaErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "HaciendaError";
    this.code = code;
  }
}

export function isHaciendaError(value: unknown, code?: HaciendaErrorCode): value is HaciendaError {
  return value instanceof HaciendaError && (code === undefined || value.code === code);
}
