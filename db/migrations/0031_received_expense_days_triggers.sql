-- The received expenses added up by day (received_expense_days, migration received_expense_days;
-- docs/decisions/156), kept by the database like document_days: every insert, change or deletion of a
-- received document moves it out of the row it counted in and into the row it counts in now.
--
-- A received document counts as an expense when the view received_expenses says so (decision 176):
-- accepted (MensajeReceptor 1 or 2, not rejected by Hacienda, sent) and with a category; its row is
-- its company, its Costa Rica day (expense_day) and its category, its amount expense_crc.
create function received_expense_days_add(doc received_documents, n integer) returns void language plpgsql as $$
begin
  if not coalesce(doc.expense_category_id is not null and doc.message in (1, 2) and doc.status not in ('rechazado', 'no enviado'), false) then
    return;
  end if;
  insert into received_expense_days (company_id, day, category_id, documents, amount_crc)
  values (doc.company_id, doc.expense_day, doc.expense_category_id, n, n * doc.expense_crc)
  on conflict (company_id, day, category_id)
  do update set documents = received_expense_days.documents + excluded.documents, amount_crc = received_expense_days.amount_crc + excluded.amount_crc;
  delete from received_expense_days
   where company_id = doc.company_id and day = doc.expense_day and category_id = doc.expense_category_id and documents = 0;
end
$$;
--> statement-breakpoint
create function received_expense_days_write() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform received_expense_days_add(old, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform received_expense_days_add(new, 1);
  end if;
  return null;
end
$$;
--> statement-breakpoint
create constraint trigger received_expense_days_insert after insert on received_documents
  deferrable initially deferred
  for each row execute function received_expense_days_write();
--> statement-breakpoint
create constraint trigger received_expense_days_update after update on received_documents
  deferrable initially deferred
  for each row when (
    old.company_id is distinct from new.company_id or old.expense_category_id is distinct from new.expense_category_id
    or old.message is distinct from new.message or old.status is distinct from new.status
    or old.expense_day is distinct from new.expense_day or old.expense_crc is distinct from new.expense_crc
  ) execute function received_expense_days_write();
--> statement-breakpoint
create constraint trigger received_expense_days_delete after delete on received_documents
  deferrable initially deferred
  for each row execute function received_expense_days_write();
--> statement-breakpoint
-- The documents already stored (tests/integration/received-expense-columns.test.ts runs this statement
-- again and compares with what the triggers wrote).
insert into received_expense_days (company_id, day, category_id, documents, amount_crc)
select company_id, expense_day, expense_category_id, count(*), sum(expense_crc)
  from received_documents
 where expense_category_id is not null and message in (1, 2) and status not in ('rechazado', 'no enviado')
 group by 1, 2, 3;
--> statement-breakpoint
analyze received_expense_days;
