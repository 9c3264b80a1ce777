-- The dashboard reads nothing of its own while its company's figures are unchanged (docs/decisions/202).
--
-- 1. The received documents waiting for acceptance, counted by last day to reject them
-- (pending_receptions), are shown on the dashboard with its figures: a change of them moves the
-- company's version (figures_versions, migration document_counts_triggers) like a change of the sums.
create trigger figures_versions_pending_receptions after insert or update or delete on pending_receptions
  for each row execute function figures_versions_bump();
--> statement-breakpoint
-- 2. The version is read with the session (app/server/session.server.ts), so a change of it is
-- announced like a change of the other tables the session's lookup reads (migration shell_changes,
-- docs/decisions/201): the embedded database then reads the session's row again.
create trigger shell_changed after insert or update or delete or truncate on figures_versions for each statement execute function shell_changed();
