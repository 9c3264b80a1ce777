-- The received documents counted by company and Costa Rica day (reception_days, migration
-- reception_days), kept like expense_counts (migration expense_counts_triggers): every insert, change
-- of company or day, or deletion of a received document moves it from the count it was in to the
-- count it is in now, and the documents already stored are counted here. Its day is expense_day, the
-- Costa Rica day of issued_at, the day the list's range is in; every document counts, whatever its
-- acceptance. The received-documents list without a filter or search reads its total from these rows
-- (db/queries/receptions.ts receptionList) instead of counting the month's documents.
create function reception_days_add(company integer, doc_day date, n integer)
returns void language plpgsql as $$
begin
  insert into reception_days (company_id, day, documents)
  values (company, doc_day, n)
  on conflict (company_id, day)
  do update set documents = reception_days.documents + excluded.documents;
  -- A day left without documents is no row at all.
  delete from reception_days where company_id = company and day = doc_day and documents = 0;
end
$$;
--> statement-breakpoint
create function reception_days_write() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform reception_days_add(old.company_id, old.expense_day, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform reception_days_add(new.company_id, new.expense_day, 1);
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Deferred to the commit, as pending_receptions (migration pending_receptions_triggers): a mailbox
-- that brings many documents of one day changes one row, locked only while each transaction commits.
create constraint trigger reception_days_insert after insert on received_documents
  deferrable initially deferred
  for each row execute function reception_days_write();
--> statement-breakpoint
create constraint trigger reception_days_update after update on received_documents
  deferrable initially deferred
  for each row when (
    old.company_id is distinct from new.company_id or old.expense_day is distinct from new.expense_day
  ) execute function reception_days_write();
--> statement-breakpoint
create constraint trigger reception_days_delete after delete on received_documents
  deferrable initially deferred
  for each row execute function reception_days_write();
--> statement-breakpoint
-- The documents already stored (tests/integration/reception-days.test.ts runs this statement again and
-- compares with what the triggers wrote).
insert into reception_days (company_id, day, documents)
select company_id, expense_day, count(*)
  from received_documents
 group by 1, 2;
--> statement-breakpoint
analyze reception_days;
