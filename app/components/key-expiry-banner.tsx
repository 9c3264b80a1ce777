import { Link } from "react-router";

/** Dashboard warning about the company's signing key (30 days before it expires, and after). */
export function KeyExpiryBanner({ warning, companyId, isAdmin }: { warning: { kind: "expiring" | "expired"; text: string } | null; companyId: number; isAdmin: boolean }) {
  if (!warning) return null;
  const style = warning.kind === "expired" ? "bg-danger/10 text-danger" : "bg-amber-50 text-amber-900";
  return (
    <div className={`rounded-md p-3 text-sm ${style}`} role={warning.kind === "expired" ? "alert" : "status"} data-key-expiry={warning.kind}>
      {warning.text}{" "}
      {isAdmin && (
        <Link to={`/config-hacienda/${companyId}`} className="font-medium underline">
          Configuración Hacienda
        </Link>
      )}
    </div>
  );
}
