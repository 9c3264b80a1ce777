// The account statement dialog of the clients list (/clients?statement=ID, spec part 1 §2.3
// 'Estado de cuenta'): a screen of its own, composed by the list's route module (docs/decisions/169).
// The rows are app/domain/account-statement.ts's, the same the e-mail 'Enviar al cliente' sends.
import { Link } from "react-router";
import { AppForm, SubmitButton } from "../../../components/form.tsx";
import { STATEMENT_TEXTS } from "../../../domain/account-statement.ts";
import type { StatementScreen } from "./statement.server.ts";

export function StatementDialog({ statement, back }: { statement: StatementScreen; back: string }) {
  return (
    <div className="confirm-panel fixed inset-0 z-40 flex items-center justify-center bg-slate-900/45 p-4">
      <div className="card w-full max-w-2xl" role="dialog" aria-modal="true" aria-label={STATEMENT_TEXTS.title} data-statement>
        <h2 className="text-lg font-semibold">{STATEMENT_TEXTS.title}</h2>
        <p className="mt-2 font-medium">{statement.client.name}</p>
        <p className="mt-1">
          Total pendiente: <strong data-pending-total>{statement.pendingTotal}</strong>
        </p>
        <table className="table mt-3">
          <thead>
            <tr>
              {STATEMENT_TEXTS.columns.map((c) => (
                <th key={c}>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {statement.rows.length === 0 && (
              <tr>
                <td colSpan={3} className="text-center text-slate-500">
                  {STATEMENT_TEXTS.empty}
                </td>
              </tr>
            )}
            {statement.rows.map((r) => (
              <tr key={r.reference} data-statement-row>
                <td className="break-all">{r.reference}</td>
                <td>{r.date}</td>
                <td className="text-right whitespace-nowrap">{r.pending}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <AppForm action={back} className="mt-4 flex justify-end gap-2">
          <input type="hidden" name="client_id" value={statement.client.id} />
          <Link to={back} className="btn btn-outline">
            Cerrar
          </Link>
          <SubmitButton name="intent" value="send-statement">
            Enviar al cliente
          </SubmitButton>
        </AppForm>
      </div>
    </div>
  );
}
