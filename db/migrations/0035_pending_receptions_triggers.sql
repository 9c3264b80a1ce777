-- The received documents waiting for the company's acceptance (message 4), counted by company and
-- last day to reject them (pending_receptions, migration pending_receptions; docs/decisions/158),
-- kept by the database: every insert, change of condition, company or deadline, or deletion of a
-- received document moves it from the count it was in to the count it is in now, and the documents
-- already stored are counted here (as the count it replaces, db/queries/receptions.ts
-- pendingDeadlines before this migration).
create function pending_receptions_add(company integer, deadline date, doc_message smallint, n integer)
returns void language plpgsql as $$
begin
  if doc_message <> 4 then
    return;
  end if;
  insert into pending_receptions (company_id, reject_deadline, documents)
  values (company, deadline, n)
  on conflict (company_id, reject_deadline)
  do update set documents = pending_receptions.documents + excluded.documents;
  -- A day left without pending documents is no row at all.
  delete from pending_receptions where company_id = company and reject_deadline = deadline and documents = 0;
end
$$;
--> statement-breakpoint
create function pending_receptions_write() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform pending_receptions_add(old.company_id, old.reject_deadline, old.message, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform pending_receptions_add(new.company_id, new.reject_deadline, new.message, 1);
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Deferred to the commit, as document_days (migration document_days_triggers): a mailbox that brings
-- many documents of one day changes one row, locked only while each transaction commits.
create constraint trigger pending_receptions_insert after insert on received_documents
  deferrable initially deferred
  for each row when (new.message = 4)
  execute function pending_receptions_write();
--> statement-breakpoint
create constraint trigger pending_receptions_update after update on received_documents
  deferrable initially deferred
  for each row when (
    old.message is distinct from new.message or old.company_id is distinct from new.company_id
    or old.reject_deadline is distinct from new.reject_deadline
  ) execute function pending_receptions_write();
--> statement-breakpoint
create constraint trigger pending_receptions_delete after delete on received_documents
  deferrable initially deferred
  for each row when (old.message = 4)
  execute function pending_receptions_write();
--> statement-breakpoint
-- The documents already stored (tests/integration/pending-receptions.test.ts runs this statement again
-- and compares with what the triggers wrote).
insert into pending_receptions (company_id, reject_deadline, documents)
select company_id, reject_deadline, count(*)
  from received_documents
 where message = 4
 group by 1, 2;
--> statement-breakpoint
analyze pending_receptions;
