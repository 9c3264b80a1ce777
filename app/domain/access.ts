// The access rules of spec part 1 §2.2, as a pure table and one decision function.
// Applied by the root middleware (app/server/middleware.server.ts) on every request.

export type RouteName = (typeof ROUTES)[number]["name"];

export interface RouteRule {
  name: string;
  pattern: string;
  title: string;
  /** Reachable without a session. */
  public?: boolean;
  /** Public route a signed-in user must not see (goes to /dashboard). */
  guestOnly?: boolean;
  /** Signed-in actions that are not screens (logout, company switch): no plan or status gating. */
  utility?: boolean;
  /** Allowed for a non-admin user of an inactive company. */
  inactiveOk?: boolean;
  /** Allowed for plan (permission) 2, reception only. */
  plan2?: boolean;
  /** Called by another server (no browser, no cookies): it authenticates its payload itself. */
  csrfExempt?: boolean;
  /**
   * Posts stay allowed when the company is on plan 5 (read-only interface: docs/decisions/124).
   * Every other signed-in route is read-only at plan 5: a new route is read-only until marked here.
   */
  plan5Writes?: boolean;
}

/** Plan 5 (API): the interface is read-only (spec part 1 §1, §6; part 2 §6). */
export const PLAN5_READ_ONLY = "Tu plan (API) es de solo lectura en la aplicación: los cambios se hacen por la API o con otro plan.";

export const ROUTES = [
  // public
  { name: "login", pattern: "/login", title: "Iniciar sesión", public: true, guestOnly: true },
  { name: "query-public", pattern: "/query-public/:code64", title: "Consulta de documento", public: true },
  { name: "password-reset", pattern: "/password/reset/:token", title: "Restablecer contraseña", public: true, guestOnly: true },
  { name: "password-email", pattern: "/password/email", title: "Recuperar contraseña", public: true, guestOnly: true },
  { name: "error-404", pattern: "/pages/error-404", title: "Página no encontrada", public: true },
  { name: "hacienda-callback", pattern: "/hacienda/callback", title: "Notificación de Hacienda", public: true, csrfExempt: true },
  // signed-in utilities
  { name: "logout", pattern: "/logout", title: "Cerrar sesión", utility: true, plan5Writes: true },
  { name: "select-company", pattern: "/select-company", title: "Seleccionar compañía", utility: true, plan5Writes: true },
  { name: "advertisement-seen", pattern: "/advertisement-seen", title: "Anuncio", utility: true, plan5Writes: true },
  { name: "company-logo", pattern: "/company-logo/:id", title: "Logo", utility: true },
  { name: "download-all-files", pattern: "/download-all-files/:id", title: "Descargar XML y PDF", utility: true },
  { name: "locations", pattern: "/locations", title: "Ubicaciones", utility: true },
  { name: "activity-lookup", pattern: "/activity-lookup", title: "Actividades económicas", utility: true },
  { name: "activities", pattern: "/activities", title: "Actividades económicas", utility: true },
  { name: "cabys-search", pattern: "/cabys-search", title: "CABYS", utility: true },
  { name: "document-file", pattern: "/document-file/:id/:file", title: "Archivo del documento", utility: true },
  // authenticated screens (part 1 §2.1)
  { name: "dashboard", pattern: "/dashboard", title: "Inicio", inactiveOk: true, plan2: true },
  { name: "rdashboard", pattern: "/rdashboard", title: "Inicio" },
  { name: "advertisement", pattern: "/advertisement", title: "Anuncio", plan5Writes: true },
  { name: "clients", pattern: "/clients", title: "Clientes" },
  { name: "new-client", pattern: "/new-client", title: "Nuevo Cliente" },
  { name: "client-detail", pattern: "/client-detail/:id", title: "Detalle del cliente" },
  { name: "students", pattern: "/students", title: "Estudiantes" },
  { name: "items", pattern: "/items", title: "Artículos" },
  { name: "new-item", pattern: "/new-item", title: "Nuevo Artículo" },
  { name: "edit-item", pattern: "/edit-item/:id", title: "Editar Artículo" },
  { name: "companies", pattern: "/companies", title: "Compañías", inactiveOk: true, plan5Writes: true },
  { name: "new-company", pattern: "/new-company", title: "Nueva Compañia", plan5Writes: true },
  { name: "edit-company", pattern: "/edit-company/:id", title: "Editar Compañia", plan5Writes: true },
  { name: "quotations", pattern: "/quotations", title: "Cotizaciones" },
  { name: "recurrings", pattern: "/recurrings", title: "Facturas recurrentes" },
  { name: "new-quotation", pattern: "/new-quotation", title: "Nueva Cotización" },
  { name: "recurring-new", pattern: "/recurring-new", title: "Nueva factura recurrente" },
  { name: "edit-quotation", pattern: "/edit-quotation/:document_type/:document_id", title: "Editar Cotización" },
  { name: "edit-recurring", pattern: "/edit-recurring/:document_type/:document_id", title: "Editar factura recurrente" },
  { name: "invoices", pattern: "/invoices", title: "Facturas" },
  { name: "new-invoice", pattern: "/new-invoice", title: "Nueva Factura" },
  { name: "tickets", pattern: "/tickets", title: "Tiquetes" },
  { name: "new-ticket", pattern: "/new-ticket", title: "Nuevo Tiquete" },
  { name: "detail-transaction", pattern: "/detail/:type/:id/:print?", title: "Detalle del documento" },
  { name: "main-configurations", pattern: "/main-configurations/:company_id", title: "Configuraciones" },
  { name: "all-configurations", pattern: "/all-configurations/:company_id", title: "Configuraciones" },
  { name: "config-hacienda", pattern: "/config-hacienda/:company_id", title: "Configuración Hacienda", plan5Writes: true },
  { name: "config-generals", pattern: "/config-generals/:company_id", title: "Configuraciones generales" },
  { name: "config-email", pattern: "/config-email/:company_id", title: "Servidor Email", plan5Writes: true },
  { name: "template-email", pattern: "/template-email/:company_id", title: "Plantillas Email" },
  { name: "config-api", pattern: "/config-api/:company_id", title: "Configuración API", plan5Writes: true },
  { name: "notes", pattern: "/notes", title: "Notas" },
  { name: "new-note", pattern: "/new-note/:note_type/:document_type/:document_id", title: "Nueva Nota" },
  { name: "payments", pattern: "/payments", title: "Pagos" },
  { name: "expenses", pattern: "/expenses", title: "Gastos" },
  // The expense dialogs (child routes of /expenses) and the receipt (docs/decisions/150).
  { name: "new-expense", pattern: "/expenses/new", title: "Nuevo gasto" },
  { name: "new-expense-category", pattern: "/expenses/new/category", title: "Nueva categoría" },
  { name: "expense-categories", pattern: "/expenses/categories", title: "Categorías de gastos" },
  { name: "expense-payment-methods", pattern: "/expenses/payment-methods", title: "Métodos de pago" },
  { name: "expense-file", pattern: "/expense-file/:id", title: "Adjunto del gasto" },
  { name: "message-receptors", pattern: "/message-receptors", title: "Documentos recibidos", plan2: true },
  { name: "new-message-receptor", pattern: "/new-message-receptor", title: "Nuevo mensaje receptor", plan2: true },
  // The list's dialogs (child routes) and the files of a received document (issue 12).
  { name: "message-receptors-upload", pattern: "/message-receptors/upload", title: "Subir Nuevo XML", plan2: true },
  { name: "message-receptors-process", pattern: "/message-receptors/process", title: "Procesar documentos recibidos", plan2: true },
  { name: "reception-file", pattern: "/message-receptors/:id/file/:file", title: "Archivo del documento recibido", plan2: true },
  { name: "reception-pdf", pattern: "/message-receptors/:id/pdf", title: "PDF del documento recibido", plan2: true },
  { name: "new-clone", pattern: "/new-clone/:document_type/:document_id", title: "Clonar documento" },
  { name: "new-recurring", pattern: "/new-recurring/:document_type/:document_id", title: "Hacer recurrente" },
  { name: "report-tickets", pattern: "/report-tickets", title: "Reporte de tiquetes" },
  { name: "report-invoices", pattern: "/report-invoices", title: "Reporte de facturas" },
  { name: "report-notes", pattern: "/report-notes", title: "Reporte de notas" },
  { name: "report-expenses", pattern: "/report-expenses", title: "Reporte de gastos", plan2: true },
  { name: "report-items", pattern: "/report-items", title: "Reporte de artículos" },
  { name: "report-purchases", pattern: "/report-purchases", title: "Reporte de compras" },
  // 'Exportar a Excel' of each report: the same rules as its screen (plan 2: expenses only).
  { name: "report-tickets-excel", pattern: "/report-tickets/excel", title: "Reporte de tiquetes" },
  { name: "report-invoices-excel", pattern: "/report-invoices/excel", title: "Reporte de facturas" },
  { name: "report-notes-excel", pattern: "/report-notes/excel", title: "Reporte de notas" },
  { name: "report-expenses-excel", pattern: "/report-expenses/excel", title: "Reporte de gastos", plan2: true },
  { name: "report-items-excel", pattern: "/report-items/excel", title: "Reporte de artículos" },
  { name: "report-purchases-excel", pattern: "/report-purchases/excel", title: "Reporte de compras" },
  { name: "report-document-receptions-excel", pattern: "/report-document-receptions/excel", title: "Reporte de documentos recibidos" },
  // The IVA summary for the monthly return (issue 13 point 4), not part of the spec's route table.
  { name: "report-iva", pattern: "/report-iva", title: "Resumen de IVA (D-150)" },
  { name: "report-iva-excel", pattern: "/report-iva/excel", title: "Resumen de IVA (D-150)" },
  { name: "terms", pattern: "/terms/:company_id", title: "Términos y Condiciones" },
  { name: "taxes", pattern: "/taxes/:company_id", title: "Lista de IVA" },
  { name: "add-user", pattern: "/add-user", title: "Nuevo Usuario", plan5Writes: true },
  { name: "edit-user", pattern: "/edit-user/:user_id", title: "Editar Usuario", plan5Writes: true },
  { name: "users", pattern: "/users", title: "Usuarios", plan5Writes: true },
  { name: "assign-company", pattern: "/assign-company", title: "Asignar compañía", plan5Writes: true },
  { name: "companies-user", pattern: "/companies-user/:user_id", title: "Compañías del usuario", plan5Writes: true },
  { name: "all-companies", pattern: "/all-companies", title: "Todas las compañías", plan5Writes: true },
  { name: "simples", pattern: "/simples", title: "Facturas de compra" },
  { name: "new-simple", pattern: "/new-simple", title: "Nueva factura de compra" },
  { name: "providers", pattern: "/providers", title: "Proveedores" },
  { name: "report-document-receptions", pattern: "/report-document-receptions", title: "Reporte de documentos recibidos" },
] as const satisfies readonly RouteRule[];

const compiled = ROUTES.map((r) => {
  const re = r.pattern
    .split("/")
    .filter(Boolean)
    .map((seg) => (seg.startsWith(":") ? (seg.endsWith("?") ? "(?:/[^/]+)?" : "/[^/]+") : "/" + seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return { rule: r as RouteRule, re: new RegExp(`^${re}/?$`) };
});

export function matchRoute(pathname: string): RouteRule | undefined {
  return compiled.find((c) => c.re.test(pathname))?.rule;
}

/** A company id as a route receives it (`params.company_id`): plain digits, else null (" 12", "0x0c", "1e1" are not ids). */
export function companyIdParam(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : null;
}

/**
 * The `:company_id` of a route that names the company it changes (configuration screens), if any.
 * The path is the request's, still percent-encoded; React Router decodes each segment before it
 * hands the route its params, so the segment is decoded here the same way: `/terms/%31%32` is
 * company 12 to the route, and is judged as company 12.
 */
export function targetCompanyId(rule: RouteRule, pathname: string): number | null {
  const segments = rule.pattern.split("/");
  const i = segments.indexOf(":company_id");
  if (i < 0) return null;
  const raw = pathname.split("/")[i] ?? "";
  let segment = raw;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    // A malformed escape: React Router keeps the segment as it is, and so does this.
  }
  return companyIdParam(segment);
}

/**
 * The integrator API (/api/v1/*, its reference /api/docs): outside the cookie session, CSRF and the
 * route table — every API call authenticates its own bearer token (app/server/api/router.server.ts).
 */
export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

export interface AccessState {
  /** A valid session with a user. */
  signedIn: boolean;
  /** The session has an active company selected. */
  hasCompany: boolean;
  isAdmin: boolean;
  companyActive: boolean;
  permission: number;
  /** The request changes something (POST, PUT, PATCH, DELETE). */
  writing?: boolean;
  /**
   * The plan of the company a write changes when the route names one (`:company_id`), else the
   * session company's (`permission`).
   */
  targetPermission?: number;
}

export type AccessDecision =
  | { kind: "allow"; route: RouteRule }
  | { kind: "redirect"; to: string }
  | { kind: "refuse"; status: 403; message: string };

export function decideAccess(pathname: string, s: AccessState): AccessDecision {
  if (pathname === "/" || pathname === "") return { kind: "redirect", to: "/dashboard" };
  const route = matchRoute(pathname);
  if (!route) return { kind: "redirect", to: "/pages/error-404" };
  const ready = s.signedIn && s.hasCompany;
  if (route.public) {
    if (route.guestOnly && ready) return { kind: "redirect", to: "/dashboard" };
    return { kind: "allow", route };
  }
  if (!ready) return { kind: "redirect", to: "/login" };
  // Plan 5: the interface changes nothing of the company's data (docs/decisions/124).
  if (s.writing && !route.plan5Writes && (s.targetPermission ?? s.permission) === 5) return { kind: "refuse", status: 403, message: PLAN5_READ_ONLY };
  if (route.utility) return { kind: "allow", route };
  if (!s.companyActive && !s.isAdmin && !route.inactiveOk) return { kind: "redirect", to: "/dashboard" };
  if (s.permission === 2 && !route.plan2) return { kind: "redirect", to: "/dashboard" };
  return { kind: "allow", route };
}
