import type { FetcherWithComponents } from "react-router";
import { AppForm } from "./form.tsx";

/**
 * A confirmed action. Without JavaScript the <details> opens a confirm step with its own form;
 * with JavaScript it behaves the same, as a modal panel (no script needed for either).
 */
export function ConfirmAction({
  label,
  title,
  message,
  intent,
  fields = {},
  action,
  confirmLabel = "Sí, continuar",
  buttonClass = "btn btn-outline btn-sm",
  fetcher,
}: {
  label: string;
  title: string;
  message: string;
  intent: string;
  fields?: Record<string, string | number>;
  action?: string;
  confirmLabel?: string;
  buttonClass?: string;
  /** Submit through this fetcher when JavaScript runs (the panel closes on submit). */
  fetcher?: FetcherWithComponents<unknown>;
}) {
  return (
    <details className="confirm inline-block">
      <summary className={buttonClass} role="button">
        {label}
      </summary>
      <div className="confirm-panel">
        <div className="card w-full max-w-sm" role="dialog" aria-modal="true" aria-label={title}>
          <h2 className="text-lg font-semibold">{title}</h2>
          <p className="mt-2 text-slate-600">{message}</p>
          <AppForm
            action={action}
            className="mt-4 flex justify-end gap-2"
            fetcher={fetcher}
            onSubmit={fetcher ? (e) => e.currentTarget.closest("details")?.removeAttribute("open") : undefined}
          >
            <input type="hidden" name="intent" value={intent} />
            {Object.entries(fields).map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={String(v)} />
            ))}
            <button type="submit" name="confirm" value="cancel" className="btn btn-outline">
              Cancelar
            </button>
            <button type="submit" name="confirm" value="yes" className="btn btn-primary">
              {confirmLabel}
            </button>
          </AppForm>
        </div>
      </div>
    </details>
  );
}
