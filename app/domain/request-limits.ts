// How many bytes a request body may carry, per route: the one place to declare it. The HTTP layer
// (server/request-handler.ts) counts the bytes actually read — chunked bodies included, whatever
// Content-Length says — and answers 413 with BODY_TOO_LARGE once a body goes past its route's limit
// (docs/decisions/111-request-body-limits.md). Routes that check a file's own size (logo, key,
// spreadsheet) keep their friendlier form message below these caps.
import { matchRoute, type RouteName } from "./access.ts";

const KB = 1024;
const MB = 1024 * KB;

/** Sign-in and password forms: a few short fields. */
const CREDENTIALS = 16 * KB;
/** Any form without files that is not listed below. */
export const DEFAULT_BODY_LIMIT = 512 * KB;
/** The document forms: up to 1000 lines (Hacienda's maximum) with their fields. */
const DOCUMENT_FORM = 4 * MB;
/** An uploaded XML document with its MensajeHacienda (future reception screens). */
const XML_UPLOAD = 6 * MB;
/** An expense with its attached receipt (future expenses screen). */
const ATTACHMENT = 11 * MB;

export const BODY_LIMITS: Partial<Record<RouteName, number>> = {
  login: CREDENTIALS,
  "password-email": CREDENTIALS,
  "password-reset": CREDENTIALS,
  logout: CREDENTIALS,
  "select-company": CREDENTIALS,
  "advertisement-seen": CREDENTIALS,
  // Hacienda's notification: JSON with the clave and a Base64 MensajeHacienda (only the clave is read).
  "hacienda-callback": 256 * KB,
  // Files: the logo (1 MB), the .p12 key (100 kB), the CABYS spreadsheet (20 MB), the activity catalogue (5 MB).
  "new-company": 4 * MB,
  "edit-company": 4 * MB,
  "config-hacienda": 1 * MB,
  items: 24 * MB,
  clients: 6 * MB,
  providers: 6 * MB,
  "new-invoice": DOCUMENT_FORM,
  "new-ticket": DOCUMENT_FORM,
  "new-quotation": DOCUMENT_FORM,
  "edit-quotation": DOCUMENT_FORM,
  "new-note": DOCUMENT_FORM,
  "new-clone": DOCUMENT_FORM,
  "new-simple": DOCUMENT_FORM,
  "recurring-new": DOCUMENT_FORM,
  "edit-recurring": DOCUMENT_FORM,
  "new-recurring": DOCUMENT_FORM,
  "new-message-receptor": XML_UPLOAD,
  expenses: ATTACHMENT,
};

/** The limit of the route a path belongs to (`/x.data` is `/x`; unknown paths get the default). */
export function bodyLimitFor(pathname: string): number {
  const path = pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") || "/";
  const rule = matchRoute(path);
  return (rule && BODY_LIMITS[rule.name as RouteName]) || DEFAULT_BODY_LIMIT;
}

/** "512 kB", "4 MB". */
export function formatBytes(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / KB)} kB`;
}

/** The 413 answer's text. */
export function bodyTooLargeText(limit: number): string {
  return `El formulario o el archivo enviado es demasiado grande (máximo ${formatBytes(limit)}). Reduzca el tamaño e inténtelo de nuevo.`;
}
