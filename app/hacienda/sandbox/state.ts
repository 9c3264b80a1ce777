/** In-memory state of the Hacienda sandbox: issued tokens and received documents. */

export interface SandboxUser {
  username: string;
  password: string;
}

export interface IssuedToken {
  username: string;
  realm: string;
  expiresAt: number;
}

export interface VerdictRow {
  codigo: number;
  mensaje: string;
  fila: number;
  columna: number;
}

export interface Verdict {
  /** `error`: the document could not be processed at all (not XML, not a v4.4 comprobante). */
  estado: "aceptado" | "rechazado" | "error";
  /** Lines `codigo, mensaje, fila, columna` for a rejection; empty when accepted. */
  errores: VerdictRow[];
  /** Warnings: they do not reject (shown inside an accepted answer). */
  avisos?: VerdictRow[];
}

export interface ReceivedDocument {
  /** `clave` or `clave-consecutivoReceptor`. */
  key: string;
  clave: string;
  consecutivoReceptor?: string;
  fecha: string;
  emisor: { tipoIdentificacion: string; numeroIdentificacion: string };
  receptor?: { tipoIdentificacion: string; numeroIdentificacion: string };
  callbackUrl?: string;
  xml: string;
  /** The IdP user whose token sent it (GET /comprobantes lists a user's own documents). */
  username: string;
  /** FechaEmision as the XML writes it (absent for a MensajeReceptor or an unreadable XML). */
  fechaEmision?: string;
  /** Root element of the XML (absent when unreadable). */
  root?: string;
  /** Total and tax the XML states (TotalComprobante/TotalImpuesto, or an MR's TotalFactura/MontoTotalImpuesto). */
  total?: string;
  totalImpuesto?: string;
  emisorNombre?: string;
  receivedAt: number;
  /** Polls answered `procesando` so far. */
  pollsAnsweredProcessing: number;
  verdict: Verdict;
  /** The signed MensajeHacienda (absent when the verdict is `error`). */
  respuestaXml?: string;
  callback: { attempts: number; delivered: boolean; lastError?: string };
}

export interface SandboxCounters {
  tokenRequests: number;
  posts: number;
  gets: number;
  duplicatePosts: number;
  rejectedPosts: number;
  injected5xx: number;
  injected429: number;
  droppedAnswers: number;
  tokenFailures: number;
}

export class SandboxState {
  readonly users = new Map<string, string>();
  readonly tokens = new Map<string, IssuedToken>();
  readonly refreshTokens = new Map<string, IssuedToken>();
  readonly documents = new Map<string, ReceivedDocument>();
  /**
   * Consecutive numbers in use: issuer identification (12, as in the clave) + NumeroConsecutivo
   * (or receptor + NumeroConsecutivoReceptor for a MensajeReceptor) → the document key that took it.
   */
  readonly consecutives = new Map<string, string>();
  /** How many times each key was registered as a new document. Must never exceed 1. */
  readonly registrations = new Map<string, number>();
  readonly counters: SandboxCounters = {
    tokenRequests: 0,
    posts: 0,
    gets: 0,
    duplicatePosts: 0,
    rejectedPosts: 0,
    injected5xx: 0,
    injected429: 0,
    droppedAnswers: 0,
    tokenFailures: 0,
  };

  constructor(users: SandboxUser[]) {
    for (const u of users) this.users.set(u.username, u.password);
  }

  /** Distinct keys whose verdict is `aceptado`. */
  acceptedKeys(): string[] {
    return [...this.documents.values()].filter((d) => d.verdict.estado === "aceptado").map((d) => d.key);
  }

  rejectedKeys(): string[] {
    return [...this.documents.values()].filter((d) => d.verdict.estado === "rechazado").map((d) => d.key);
  }

  /** Keys answered `error` (unprocessable documents). */
  errorKeys(): string[] {
    return [...this.documents.values()].filter((d) => d.verdict.estado === "error").map((d) => d.key);
  }

  /** Keys registered more than once (should always be empty). */
  doubleRegistrations(): string[] {
    return [...this.registrations.entries()].filter(([, n]) => n > 1).map(([k]) => k);
  }

  snapshot() {
    return {
      documents: this.documents.size,
      accepted: this.acceptedKeys().length,
      rejected: this.rejectedKeys().length,
      errors: this.errorKeys().length,
      doubleRegistrations: this.doubleRegistrations(),
      counters: { ...this.counters },
    };
  }
}
