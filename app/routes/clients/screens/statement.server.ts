// The account statement dialog's data and its 'Enviar al cliente' (the view: statement.tsx).
import type { DbOrTx } from "../../../../db/client.ts";
import { statementRows } from "../../../domain/account-statement.ts";
import { formatMoney } from "../../../domain/format-money.ts";
import { accountStatement, sendAccountStatement } from "../../../server/clients.server.ts";

/** The dialog's data: the client, the pending total in colones and the rows as shown. */
export async function statementScreen(db: DbOrTx, companyId: number, clientId: number) {
  const st = await accountStatement(db, companyId, clientId);
  return { client: st.client, pendingTotal: formatMoney(st.pendingTotal, "₡"), rows: statementRows(st.invoices) };
}
export type StatementScreen = Awaited<ReturnType<typeof statementScreen>>;

/** 'Enviar al cliente'. */
export const sendStatement = sendAccountStatement;

