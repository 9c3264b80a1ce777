// Navigation entries of the signed-in shell; the same access rules decide what is shown.
import { decideAccess, type AccessState } from "./access.ts";

export interface NavItem {
  label: string;
  to: string;
  adminOnly?: boolean;
  /** Shown only to the super-admin (content every tenant sees: docs/decisions/121). */
  superAdminOnly?: boolean;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

export const NAV: NavGroup[] = [
  { label: "General", items: [{ label: "Inicio", to: "/dashboard" }] },
  {
    label: "Ventas",
    items: [
      { label: "Cotizaciones", to: "/quotations" },
      { label: "Facturas", to: "/invoices" },
      { label: "Tiquetes", to: "/tickets" },
      { label: "Notas", to: "/notes" },
      { label: "Recurrentes", to: "/recurrings" },
      { label: "Pagos", to: "/payments" },
    ],
  },
  {
    label: "Compras",
    items: [
      { label: "Facturas de compra", to: "/simples" },
      { label: "Gastos", to: "/expenses" },
      { label: "Documentos recibidos", to: "/message-receptors" },
    ],
  },
  {
    label: "Catálogos",
    items: [
      { label: "Clientes", to: "/clients" },
      { label: "Proveedores", to: "/providers" },
      { label: "Estudiantes", to: "/students" },
      { label: "Artículos", to: "/items" },
    ],
  },
  {
    label: "Reportes",
    items: [
      { label: "Facturas", to: "/report-invoices" },
      { label: "Tiquetes", to: "/report-tickets" },
      { label: "Notas", to: "/report-notes" },
      { label: "Gastos", to: "/report-expenses" },
      { label: "Artículos", to: "/report-items" },
      { label: "Resumen de IVA (D-150)", to: "/report-iva" },
      { label: "Compras", to: "/report-purchases" },
      { label: "Documentos recibidos", to: "/report-document-receptions" },
    ],
  },
  {
    label: "Administración",
    items: [
      { label: "Compañías", to: "/companies" },
      { label: "Usuarios", to: "/users", adminOnly: true },
      { label: "Anuncio", to: "/advertisement", superAdminOnly: true },
    ],
  },
];

/** The navigation a user sees: entries the access rules allow, admin entries for admins only, super-admin entries for him. */
export function navigationFor(state: AccessState & { isSuperAdmin?: boolean }): NavGroup[] {
  return NAV.map((g) => ({
    label: g.label,
    items: g.items.filter((i) => (!i.adminOnly || state.isAdmin) && (!i.superAdminOnly || !!state.isSuperAdmin) && decideAccess(i.to, state).kind === "allow"),
  })).filter((g) => g.items.length > 0);
}
