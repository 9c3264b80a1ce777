-- The live clients (deleted_at null) counted by company, provider or client, and active or not
-- (client_counts, migration client_counts; docs/decisions/200): every insert, deletion, deletion mark
-- or change of company, provider or active moves a client from the count it was in to the count it
-- is in now, and the clients already stored are counted here. A clients or providers list without a
-- search reads its total from these rows (db/queries/clients.ts clientsPage) instead of counting.
create function client_counts_add(company integer, is_provider boolean, is_active boolean, n integer)
returns void language plpgsql as $$
begin
  insert into client_counts (company_id, provider, active, clients)
  values (company, is_provider, is_active, n)
  on conflict (company_id, provider, active)
  do update set clients = client_counts.clients + excluded.clients;
  -- A group left without live clients is no row at all.
  delete from client_counts where company_id = company and provider = is_provider and active = is_active and clients = 0;
end
$$;
--> statement-breakpoint
create function client_counts_write() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.deleted_at is null then
    perform client_counts_add(old.company_id, old.provider, old.active, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.deleted_at is null then
    perform client_counts_add(new.company_id, new.provider, new.active, 1);
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Deferred to the commit, as document_counts (migration document_counts_triggers): an import of many
-- clients changes one row, locked only while its transaction commits.
create constraint trigger client_counts_insert after insert on clients
  deferrable initially deferred
  for each row when (new.deleted_at is null)
  execute function client_counts_write();
--> statement-breakpoint
create constraint trigger client_counts_update after update on clients
  deferrable initially deferred
  for each row when (
    old.company_id is distinct from new.company_id or old.provider is distinct from new.provider
    or old.active is distinct from new.active or (old.deleted_at is null) <> (new.deleted_at is null)
  ) execute function client_counts_write();
--> statement-breakpoint
create constraint trigger client_counts_delete after delete on clients
  deferrable initially deferred
  for each row when (old.deleted_at is null)
  execute function client_counts_write();
--> statement-breakpoint
-- The clients already stored (tests/integration/client-counts.test.ts runs this statement again and
-- compares with what the triggers wrote).
insert into client_counts (company_id, provider, active, clients)
select company_id, provider, active, count(*)
  from clients
 where deleted_at is null
 group by 1, 2, 3;
--> statement-breakpoint
analyze client_counts;
