// The client screens' texts, constants and form helpers without zod: the list, the detail, the form
// and its dialog import these, and the form's schema (client-schemas.ts, which re-exports this
// module) is loaded only with the browser checks (the JavaScript budget, decisions 166 and 155).

export const HOME_COUNTRY = 60;

/** The texts the client screens show in the browser (kept apart from the server's messages, so the pages do not ship those). */
export const CLIENT_SCREEN_TEXTS = {
  confirmDeactivate: "Si desactivas el cliente, este no estara disponible para emitir nuevos documentos",
  confirmDelete: "¿ Deseas eliminar el cliente ?",
  emptyActive: "No hay Clientes",
  emptyInactive: "No hay clientes inactivos",
  emptyProviders: "No hay Proveedores",
  noDocuments: "No hay documentos",
} as const;

export const CLIENT_MESSAGES = {
  saved: "Cliente Guardado Correctamente",
  updated: "Cliente actualizado correctamente",
  updatedDetail: "Cliente Actualizado Correctamente",
  saveError: "Error al guardar cliente",
  loadError: "Error cargando cliente",
  invoicesError: "Ha ocurrido un error al cargar las facturas del cliente",
  deleted: "Cliente eliminado",
  problem: "Ocurrio un problema",
  cancelled: "Acción cancelada",
  activated: "Cliente activado correctamente",
  deactivated: "Cliente desactivado correctamente",
  hasDocuments: "No se puede eliminar un cliente con documentos",
  genericLocked: "El cliente genérico no se puede desactivar ni eliminar",
  statementSent: "Estado de cuenta enviado al cliente correctamente.",
  maxContacts4: "No puede agregar mas de 4 contactos",
  maxContacts3: "No puede agregar mas de 3 contactos",
  readOnlyPlan: "Tu plan no permite crear clientes desde la aplicación.",
  activitiesSuperAdminOnly: "Solo el superadministrador puede importar el catálogo de actividades: lo usan todas las empresas.",
  invalid: "invalido",
} as const;

export const CLIENT_ACTIVITY_MESSAGES = {
  needIdentification: "Ingrese tipo y número de identificación",
  onlyLegal: "La búsqueda de actividades aplica solo para personas jurídicas (02)",
} as const;

/** Filters of the client detail's document tabs (spec part 1 §2.3 Client detail). */
export const DOCUMENT_FILTERS = ["aceptado", "rechazado", "pagado", "no-pagado"] as const;
export type DocumentFilter = (typeof DOCUMENT_FILTERS)[number];

/** Where the form is shown: the list's dialog, the standalone /new-client page, or the detail's Información tab. */
export type ClientFormMode = "dialog" | "new" | "detail";

export const maxContacts = (mode: ClientFormMode) => (mode === "detail" ? 3 : 4);
export const maxContactsMessage = (mode: ClientFormMode) => (mode === "detail" ? CLIENT_MESSAGES.maxContacts3 : CLIENT_MESSAGES.maxContacts4);

export interface ClientSchemaOptions {
  mode: ClientFormMode;
  provider: boolean;
  /** The activity code stored now: an old-catalogue code may be posted back unchanged (activityCodeError). */
  storedActivityCode?: string | null;
}

/** Whether the economic activity is required (spec part 1 §5 Client). See docs/decisions/040. */
export function activityRequired(opts: ClientSchemaOptions, identificationType: number): boolean {
  if (opts.provider) return true;
  if (opts.mode === "dialog") return false;
  return identificationType !== 2;
}

export interface ContactValues {
  name: string;
  email: string;
  workstation: string;
  send_copy: string;
}

export const emptyContact = (): ContactValues => ({ name: "", email: "", workstation: "", send_copy: "" });

/** Contact rows carried as flat fields contact_name_N, contact_email_N, … plus contact_count. */
export function readContacts(values: Record<string, string | undefined>): ContactValues[] {
  const count = Math.min(Math.max(Number(values.contact_count) || 1, 1), 10);
  const out: ContactValues[] = [];
  for (let i = 0; i < count; i++) {
    out.push({
      name: values[`contact_name_${i}`] ?? "",
      email: values[`contact_email_${i}`] ?? "",
      workstation: values[`contact_workstation_${i}`] ?? "",
      send_copy: values[`contact_copy_${i}`] ?? "",
    });
  }
  return out;
}

/** The flat fields of a list of contacts (inverse of readContacts). */
export function contactFields(contacts: ContactValues[]): Record<string, string> {
  const out: Record<string, string> = { contact_count: String(Math.max(contacts.length, 1)) };
  contacts.forEach((c, i) => {
    out[`contact_name_${i}`] = c.name;
    out[`contact_email_${i}`] = c.email;
    out[`contact_workstation_${i}`] = c.workstation;
    out[`contact_copy_${i}`] = c.send_copy;
  });
  return out;
}

/** The object the schema parses, from the flat form values. */
export function clientFormObject(values: Record<string, string | undefined>) {
  return { ...values, contacts: readContacts(values) };
}

/** Error key of a contact field, as parseForm reports it. */
export const contactErrorKey = (i: number, field: "name" | "email" | "workstation") => `contacts.${i}.${field}`;

/** Activity lookup preconditions for clients (spec part 1 §5 Activity lookup). */
export function activityLookupCheck(identificationType: string | undefined, identification: string | undefined): string | null {
  if (!identificationType || !identification?.trim()) return CLIENT_ACTIVITY_MESSAGES.needIdentification;
  if (identificationType !== "2") return CLIENT_ACTIVITY_MESSAGES.onlyLegal;
  return null;
}

/** A key that resets the client form's uncontrolled inputs whenever the server sends a new state. */
export const clientFormKey = (s: { values: unknown; contacts: unknown[]; message: string | null; errors: unknown }) => JSON.stringify([s.values, s.contacts.length, s.message, s.errors]);
