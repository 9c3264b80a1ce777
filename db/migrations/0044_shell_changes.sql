-- Every change of a table the session's lookup reads (app/server/session.server.ts lookupSession) is
-- announced on channel 'colibri_shell' (docs/decisions/201). The embedded database (one process, one
-- connection) sets colibri.shell_notify and listens, so it can keep a session's row between requests
-- and read it again only after such a change; elsewhere the setting is off and nothing is sent.
-- A statement trigger, so a statement changing many rows (or none) announces once, and a transaction
-- once at its commit (PostgreSQL folds equal notifications of one transaction into one).
create function shell_changed() returns trigger language plpgsql as $$
begin
  if current_setting('colibri.shell_notify', true) = 'on' then
    perform pg_notify('colibri_shell', '');
  end if;
  return null;
end
$$;
--> statement-breakpoint
create trigger shell_changed after insert or update or delete or truncate on sessions for each statement execute function shell_changed();
--> statement-breakpoint
create trigger shell_changed after insert or update or delete or truncate on users for each statement execute function shell_changed();
--> statement-breakpoint
create trigger shell_changed after insert or update or delete or truncate on companies for each statement execute function shell_changed();
--> statement-breakpoint
create trigger shell_changed after insert or update or delete or truncate on company_users for each statement execute function shell_changed();
--> statement-breakpoint
create trigger shell_changed after insert or update or delete or truncate on general_configurations for each statement execute function shell_changed();
--> statement-breakpoint
create trigger shell_changed after insert or update or delete or truncate on currencies for each statement execute function shell_changed();
--> statement-breakpoint
create trigger shell_changed after insert or update or delete or truncate on pending_documents for each statement execute function shell_changed();
--> statement-breakpoint
create trigger shell_changed after insert or update or delete or truncate on hacienda_configs for each statement execute function shell_changed();
--> statement-breakpoint
create trigger shell_changed after insert or update or delete or truncate on advertisements for each statement execute function shell_changed();
