// The API's use of the sign-in throttling (app/server/throttle.server.ts): wrong API credentials
// count against the username and the client IP exactly like a failed sign-in of the web. The only
// place the API calls the throttling functions, so a change of their shape is changed here.
import type { DbOrTx } from "../../../db/client.ts";
import { blockedMinutes, clearFailures, LIMITS, recordFailure, throttleKeys } from "../throttle.server.ts";

const keysOf = (username: string, ip: string) => {
  const k = throttleKeys(`api:${username}`, ip);
  return { account: k.account, ip: k.ip };
};

/** Minutes to wait before another attempt with this username or from this IP (0: may try). */
export async function apiSignInWait(db: DbOrTx, username: string, ip: string, now: Date): Promise<number> {
  const k = keysOf(username, ip);
  return blockedMinutes(db, [k.account, k.ip], now);
}

export async function apiSignInFailed(db: DbOrTx, username: string, ip: string, now: Date): Promise<void> {
  const k = keysOf(username, ip);
  await recordFailure(db, k.account, LIMITS.perAccount, now);
  await recordFailure(db, k.ip, LIMITS.perIp, now);
}

export async function apiSignInSucceeded(db: DbOrTx, username: string, ip: string): Promise<void> {
  await clearFailures(db, keysOf(username, ip).account);
}
