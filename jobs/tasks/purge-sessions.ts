import type { JobHandler } from "../runner.ts";
import { purgeSessions } from "../../app/server/session.server.ts";
import { purgeResetTokens } from "../../app/server/auth.server.ts";
import { purgeThrottle } from "../../app/server/throttle.server.ts";

/** Deletes expired sessions, used or expired reset tokens and old throttle counters. */
export const purgeSessionsTask: JobHandler = async (_payload, { db, now }) => {
  const at = now();
  const sessions = await purgeSessions(db, at);
  const tokens = await purgeResetTokens(db, at);
  await purgeThrottle(db, at);
  if (sessions || tokens) console.log(`[jobs] purga: ${sessions} sesiones, ${tokens} enlaces de recuperación`);
};
