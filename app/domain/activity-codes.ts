/**
 * Economic activity codes (CodigoActividadEmisor, CodigoActividadReceptor, the MensajeReceptor's
 * CodigoActividad). Since TRIBU-CR Hacienda uses CIIU 4 codes written with a dot, six characters
 * ("6201.0", "4752.1"); the XSD only says six characters. The codes of the earlier catalogue were
 * six digits ("722003"). Pure: shared by the engine rules, the forms and the lookup.
 * docs/decisions/132.
 */

/** A CIIU 4 activity code as Hacienda writes it since TRIBU-CR: four digits, a dot, one digit. */
export const CIIU4_CODE = /^\d{4}\.\d$/;

/** A code of the catalogue before TRIBU-CR: six digits (stored as such before the migration). */
export const LEGACY_ACTIVITY_CODE = /^\d{6}$/;

export function isCiiu4(code: string | null | undefined): boolean {
  return !!code && CIIU4_CODE.test(code);
}

export function isLegacyActivityCode(code: string | null | undefined): boolean {
  return !!code && LEGACY_ACTIVITY_CODE.test(code);
}

/**
 * A code as typed or as Hacienda's fe/ae lookup answers it, in the CIIU 4 form when it can be
 * read as one: "6201.0" as is; "62010" (the dot left out) becomes "6201.0". Anything else is
 * returned trimmed and unchanged (the caller's validation says what is wrong).
 */
export function normalizeActivityCode(raw: string | null | undefined): string {
  const code = (raw ?? "").trim();
  if (/^\d{5}$/.test(code)) return `${code.slice(0, 4)}.${code.slice(4)}`;
  return code;
}

export const ACTIVITY_CODE_MESSAGES = {
  /** Form field message. */
  format: "La actividad económica debe tener un código CIIU 4 de la forma 0000.0 (por ejemplo 6201.0)",
  /** Shown on the company screen while its stored code is one of the old catalogue. */
  legacyCompany: (code: string) =>
    `La actividad económica ${code} es del catálogo anterior a TRIBU-CR y no tiene un equivalente único en el catálogo CIIU 4: elija la nueva actividad (por ejemplo 6201.0) con “Buscar actividad” y guarde la compañía. Hasta entonces no se pueden emitir comprobantes.`,
  /** Shown on the client screen while its stored code is one of the old catalogue. */
  legacyClient: (code: string) =>
    `La actividad económica ${code} de este cliente es del catálogo anterior a TRIBU-CR y no tiene un equivalente único en el catálogo CIIU 4: elija la nueva actividad (por ejemplo 6201.0) con “Buscar actividad” y guarde el cliente. Hasta entonces no se le pueden emitir facturas.`,
} as const;

/**
 * The form rule of an activity code. Empty is the caller's business (required or not). A CIIU 4
 * code passes; an old-catalogue code passes only when it is the one already stored (so that the
 * other fields of a flagged company or client can still be saved — the screen keeps asking to
 * choose the new code); anything else gets the message.
 */
export function activityCodeError(code: string | null | undefined, stored?: string | null): string | null {
  if (!code) return null;
  if (isCiiu4(code)) return null;
  if (stored && code === stored && isLegacyActivityCode(code)) return null;
  return ACTIVITY_CODE_MESSAGES.format;
}

export interface ActivityOption {
  code: string;
  description: string;
  /** P principal, S secundaria (Hacienda's fe/ae answer); "" when not known. */
  type: string;
}

/**
 * The activities a form carries between re-renders in a hidden field (a fe/ae answer, or the
 * stored activity), parsed defensively: at most 50, codes of either catalogue.
 */
export function parseActivityOptions(raw: string | undefined): ActivityOption[] {
  try {
    const list: unknown = JSON.parse(raw || "[]");
    if (!Array.isArray(list)) return [];
    return list
      .slice(0, 50)
      .filter((a): a is Record<string, unknown> => !!a && typeof a === "object" && (isCiiu4(String(a.code)) || isLegacyActivityCode(String(a.code))))
      .map((a) => ({ code: String(a.code), description: String(a.description ?? "").slice(0, 250), type: String(a.type ?? "").slice(0, 1) }));
  } catch {
    return [];
  }
}

// ---- Economic activity lookup (Hacienda's fe/ae) -------------------------------------------------

export const ACTIVITY_MESSAGES = {
  noActive: "No se encontraron actividades activas",
  none: "No se encontraron actividades",
  principal: "Actividad principal seleccionada automáticamente",
  loaded: "Actividades cargadas",
  network: "Error conectando con Hacienda",
  identification: "La identificación debe tener entre 9 y 12 caracteres",
  rateLimited: "Hacienda está limitando las consultas: intente de nuevo en un minuto.",
} as const;

export type Activity = ActivityOption;

export type ActivityLookup =
  | { ok: true; activities: Activity[]; selected: string; message: string; name: string | null }
  | { ok: false; activities: Activity[]; message: string };

/**
 * The identification as Hacienda's fe/ae lookup takes it (spec part 1 §4 Company creation): no
 * dashes or spaces, 9 to 12 characters; letters are kept (an alphanumeric cédula jurídica).
 */
export function lookupDigits(identification: string): string | null {
  const id = identification.toUpperCase().replace(/[^0-9A-Z]/g, "");
  return id.length >= 9 && id.length <= 12 ? id : null;
}

/** The reply of Hacienda's fe/ae endpoint: active activities, the principal 'P' preselected. */
export function interpretActivities(reply: unknown): ActivityLookup {
  const r = (reply ?? {}) as { nombre?: unknown; actividades?: unknown };
  const list = Array.isArray(r.actividades) ? (r.actividades as Record<string, unknown>[]) : [];
  if (list.length === 0) return { ok: false, activities: [], message: ACTIVITY_MESSAGES.none };
  const active = list
    .filter((a) => String(a.estado ?? "").toUpperCase() === "A")
    .map((a) => ({ code: normalizeActivityCode(String(a.codigo ?? "")), description: String(a.descripcion ?? "").trim(), type: String(a.tipo ?? "").toUpperCase() }))
    .filter((a) => a.code);
  if (active.length === 0) return { ok: false, activities: [], message: ACTIVITY_MESSAGES.noActive };
  const principal = active.find((a) => a.type === "P");
  return {
    ok: true,
    activities: active,
    selected: (principal ?? active[0]).code,
    message: principal ? ACTIVITY_MESSAGES.principal : ACTIVITY_MESSAGES.loaded,
    name: typeof r.nombre === "string" ? r.nombre : null,
  };
}
