// The API's use of the sign-in throttling (app/server/throttle.server.ts, decision 122): an attempt
// with API credentials is claimed on the username and the client address before the password is
// checked, exactly like a sign-in of the web; a correct one gives both back. The only place the API
// calls the throttling functions, so a change of their shape is changed here.
import type { DbOrTx } from "../../../db/client.ts";
import { claimAttempt, clearAttempts, LIMITS, releaseAttempt, throttleKeys } from "../throttle.server.ts";

// `username` is the name as the sign-in's lookup compares it (tokens.server.ts signInName, the
// database's lower()), never the text as typed: spellings that find one account share one counter.
const keysOf = (username: string, ip: string) => ({ account: throttleKeys.account(`api:${username}`), ip: throttleKeys.ip(ip) });

/** Claims one attempt; answers the seconds to wait before another (0: this attempt may go on). */
export async function apiSignInClaim(db: DbOrTx, username: string, ip: string, now: Date): Promise<number> {
  const k = keysOf(username, ip);
  const byIp = await claimAttempt(db, k.ip, LIMITS.ip, now);
  if (!byIp.ok) return byIp.waitSeconds;
  const byAccount = await claimAttempt(db, k.account, LIMITS.account, now);
  if (byAccount.ok) return 0;
  // No password was tried: this attempt does not count against the address.
  await releaseAttempt(db, k.ip, LIMITS.ip);
  return byAccount.waitSeconds;
}

/** The credentials were right: the username's count is forgotten and the address's attempt given back. */
export async function apiSignInSucceeded(db: DbOrTx, username: string, ip: string): Promise<void> {
  const k = keysOf(username, ip);
  await clearAttempts(db, k.account);
  await releaseAttempt(db, k.ip, LIMITS.ip);
}
