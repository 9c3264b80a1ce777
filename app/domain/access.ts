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
}

export const ROUTES = [
  // public
  { name: "login", pattern: "/login", title: "Iniciar sesión", public: true, guestOnly: true },
  { name: "query-public", pattern: "/query-public/:code64", title: "Consulta de documento", public: true },
  { name: "password-reset", pattern: "/password/reset/:token", title: "Restablecer contraseña", public: true, guestOnly: true },
  { name: "password-email", pattern: "/password/email", title: "Recuperar contraseña", public: true, guestOnly: true },
  { name: "error-404", pattern: "/pages/error-404", title: "Página no encontrada", public: true },
  { name: "hacienda-callback", pattern: "/hacienda/callback", title: "Notificación de Hacienda", public: true, csrfExempt: true },
  // signed-in utilities
  { name: "logout", pattern: "/logout", title: "Cerrar sesión", utility: true },
  { name: "select-company", pattern: "/select-company", title: "Seleccionar compañía", utility: true },
  { name: "advertisement-seen", pattern: "/advertisement-seen", title: "Anuncio", utility: true },
  { name: "company-logo", pattern: "/company-logo/:id", title: "Logo", utility: true },
  { name: "locations", pattern: "/locations", title: "Ubicaciones", utility: true },
  { name: "activity-lookup", pattern: "/activity-lookup", title: "Actividades económicas", utility: true },
  { name: "activities", pattern: "/activities", title: "Actividades económicas", utility: true },
  { name: "cabys-search", pattern: "/cabys-search", title: "CABYS", utility: true },
  { name: "document-file", pattern: "/document-file/:id/:file", title: "Archivo del documento", utility: true },
  // authenticated screens (part 1 §2.1)
  { name: "dashboard", pattern: "/dashboard", title: "Inicio", inactiveOk: true, plan2: true },
  { name: "rdashboard", pattern: "/rdashboard", title: "Inicio" },
  { name: "advertisement", pattern: "/advertisement", title: "Anuncio" },
  { name: "clients", pattern: "/clients", title: "Clientes" },
  { name: "new-client", pattern: "/new-client", title: "Nuevo Cliente" },
  { name: "client-detail", pattern: "/client-detail/:id", title: "Detalle del cliente" },
  { name: "students", pattern: "/students", title: "Estudiantes" },
  { name: "items", pattern: "/items", title: "Artículos" },
  { name: "new-item", pattern: "/new-item", title: "Nuevo Artículo" },
  { name: "edit-item", pattern: "/edit-item/:id", title: "Editar Artículo" },
  { name: "companies", pattern: "/companies", title: "Compañías", inactiveOk: true },
  { name: "new-company", pattern: "/new-company", title: "Nueva Compañia" },
  { name: "edit-company", pattern: "/edit-company/:id", title: "Editar Compañia" },
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
  { name: "config-hacienda", pattern: "/config-hacienda/:company_id", title: "Configuración Hacienda" },
  { name: "config-generals", pattern: "/config-generals/:company_id", title: "Configuraciones generales" },
  { name: "config-email", pattern: "/config-email/:company_id", title: "Servidor Email" },
  { name: "template-email", pattern: "/template-email/:company_id", title: "Plantillas Email" },
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
  // The IVA summary for the monthly return (issue 13 point 4), not part of the spec's route table.
  { name: "report-iva", pattern: "/report-iva", title: "Resumen de IVA (D-150)" },
  { name: "report-iva-excel", pattern: "/report-iva/excel", title: "Resumen de IVA (D-150)" },
  { name: "terms", pattern: "/terms/:company_id", title: "Términos y Condiciones" },
  { name: "taxes", pattern: "/taxes/:company_id", title: "Lista de IVA" },
  { name: "add-user", pattern: "/add-user", title: "Nuevo Usuario" },
  { name: "edit-user", pattern: "/edit-user/:user_id", title: "Editar Usuario" },
  { name: "users", pattern: "/users", title: "Usuarios" },
  { name: "assign-company", pattern: "/assign-company", title: "Asignar compañía" },
  { name: "companies-user", pattern: "/companies-user/:user_id", title: "Compañías del usuario" },
  { name: "all-companies", pattern: "/all-companies", title: "Todas las compañías" },
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

export interface AccessState {
  /** A valid session with a user. */
  signedIn: boolean;
  /** The session has an active company selected. */
  hasCompany: boolean;
  isAdmin: boolean;
  companyActive: boolean;
  permission: number;
}

export type AccessDecision =
  | { kind: "allow"; route: RouteRule }
  | { kind: "redirect"; to: string };

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
  if (route.utility) return { kind: "allow", route };
  if (!s.companyActive && !s.isAdmin && !route.inactiveOk) return { kind: "redirect", to: "/dashboard" };
  if (s.permission === 2 && !route.plan2) return { kind: "redirect", to: "/dashboard" };
  return { kind: "allow", route };
}
