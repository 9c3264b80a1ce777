import { Link } from "react-router";

export const CONFIG_TABS = [
  { key: "generales", label: "Generales", adminOnly: false },
  { key: "email", label: "Servidor Email", adminOnly: true },
  { key: "plantillas", label: "Plantilas Email", adminOnly: false },
  { key: "terminos", label: "Terminos y Condiciones", adminOnly: false },
] as const;
export type ConfigTab = (typeof CONFIG_TABS)[number]["key"];

/** The configuration tabs as plain links (no JavaScript needed); 'Servidor Email' only for admins. */
export function ConfigTabs({ base, current, isAdmin }: { base: string; current: ConfigTab; isAdmin: boolean }) {
  return (
    <nav className="flex flex-wrap gap-1 border-b border-slate-200" aria-label="Configuraciones">
      {CONFIG_TABS.filter((t) => isAdmin || !t.adminOnly).map((t) => (
        <Link
          key={t.key}
          to={`${base}?tab=${t.key}`}
          aria-current={t.key === current ? "page" : undefined}
          className={`-mb-px border-b-2 px-4 py-2 text-sm no-underline ${t.key === current ? "border-primary font-semibold text-primary" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          data-tab={t.key}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
