import type { JobHandler, Schedule } from "./runner.ts";
import { purgeSessionsTask } from "./tasks/purge-sessions.ts";

export const handlers: Record<string, JobHandler> = {
  "purge-sessions": purgeSessionsTask,
};

export const schedules: Schedule[] = [{ cron: "*/15 * * * *", type: "purge-sessions" }];
