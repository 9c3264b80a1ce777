import type { JobHandler, Schedule } from "./runner.ts";
import { purgeSessionsTask } from "./tasks/purge-sessions.ts";
import { exchangeRateTask } from "./tasks/exchange-rate.ts";

export const handlers: Record<string, JobHandler> = {
  "purge-sessions": purgeSessionsTask,
  "exchange-rate": exchangeRateTask,
};

export const schedules: Schedule[] = [
  { cron: "*/15 * * * *", type: "purge-sessions" },
  // Every hour at :05 whatever the server's time zone: the task stores the dollar rate once per Costa Rica
  // date (from 00:05 CR on) and only checks afterwards, so a failed fetch is retried the next hour
  // (docs/decisions/050-exchange-rate.md).
  { cron: "5 * * * *", type: "exchange-rate" },
];
