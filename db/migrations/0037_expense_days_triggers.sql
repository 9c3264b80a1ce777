-- The company's own expenses added up by day and category (expense_days, migration expense_days;
-- docs/decisions/159), kept by the database like received_expense_days: every insert, change or
-- deletion of an expense moves it out of the row it counted in and into the row it counts in now.
--
-- An expense counts while it is live (deleted_at null); its row is its company, its day (spent_on,
-- a Costa Rica day) and its category, its amount in colones as expenseDaysSql converted it per
-- expense (db/queries/reports.ts colones): amount × exchange_rate when in dollars (currency 1),
-- else the amount, rounded half-up to céntimos before anything is added.
create function expense_days_add(e expenses, n integer) returns void language plpgsql as $$
begin
  if e.deleted_at is not null then
    return;
  end if;
  insert into expense_days (company_id, day, category_id, expenses, amount_crc)
  values (e.company_id, e.spent_on, e.category_id, n, n * round(e.amount * case when e.currency_id = 1 then e.exchange_rate else 1 end, 2))
  on conflict (company_id, day, category_id)
  do update set expenses = expense_days.expenses + excluded.expenses, amount_crc = expense_days.amount_crc + excluded.amount_crc;
  -- A day and category left without live expenses is no row at all.
  delete from expense_days
   where company_id = e.company_id and day = e.spent_on and category_id = e.category_id and expenses = 0;
end
$$;
--> statement-breakpoint
create function expense_days_write() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform expense_days_add(old, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform expense_days_add(new, 1);
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Deferred to the commit, as document_days (migration document_days_triggers): many expenses of one
-- day change one row, locked only while each transaction commits.
create constraint trigger expense_days_insert after insert on expenses
  deferrable initially deferred
  for each row when (new.deleted_at is null)
  execute function expense_days_write();
--> statement-breakpoint
create constraint trigger expense_days_update after update on expenses
  deferrable initially deferred
  for each row when (
    old.company_id is distinct from new.company_id or old.spent_on is distinct from new.spent_on
    or old.category_id is distinct from new.category_id or old.amount is distinct from new.amount
    or old.currency_id is distinct from new.currency_id or old.exchange_rate is distinct from new.exchange_rate
    or (old.deleted_at is null) <> (new.deleted_at is null)
  ) execute function expense_days_write();
--> statement-breakpoint
create constraint trigger expense_days_delete after delete on expenses
  deferrable initially deferred
  for each row when (old.deleted_at is null)
  execute function expense_days_write();
--> statement-breakpoint
-- The expenses already stored (tests/integration/expense-days.test.ts runs this statement again and
-- compares with what the triggers wrote).
insert into expense_days (company_id, day, category_id, expenses, amount_crc)
select company_id, spent_on, category_id, count(*), sum(round(amount * case when currency_id = 1 then exchange_rate else 1 end, 2))
  from expenses
 where deleted_at is null
 group by 1, 2, 3;
--> statement-breakpoint
analyze expense_days;
