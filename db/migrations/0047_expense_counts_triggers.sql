-- The live expenses (deleted_at null) counted by company (expense_counts, migration expense_counts),
-- kept like client_counts (migration client_counts_triggers, docs/decisions/200): every insert,
-- deletion, deletion mark or change of company moves an expense from the count it was in to the
-- count it is in now, and the expenses already stored are counted here. The expenses list without a
-- search reads its total from these rows (db/queries/expenses.ts expensesPage) instead of counting.
create function expense_counts_add(company integer, n integer)
returns void language plpgsql as $$
begin
  insert into expense_counts (company_id, expenses)
  values (company, n)
  on conflict (company_id)
  do update set expenses = expense_counts.expenses + excluded.expenses;
  -- A company left without live expenses is no row at all.
  delete from expense_counts where company_id = company and expenses = 0;
end
$$;
--> statement-breakpoint
create function expense_counts_write() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.deleted_at is null then
    perform expense_counts_add(old.company_id, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.deleted_at is null then
    perform expense_counts_add(new.company_id, 1);
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Deferred to the commit, as client_counts (migration client_counts_triggers): many expenses of one
-- company change one row, locked only while each transaction commits.
create constraint trigger expense_counts_insert after insert on expenses
  deferrable initially deferred
  for each row when (new.deleted_at is null)
  execute function expense_counts_write();
--> statement-breakpoint
create constraint trigger expense_counts_update after update on expenses
  deferrable initially deferred
  for each row when (
    old.company_id is distinct from new.company_id or (old.deleted_at is null) <> (new.deleted_at is null)
  ) execute function expense_counts_write();
--> statement-breakpoint
create constraint trigger expense_counts_delete after delete on expenses
  deferrable initially deferred
  for each row when (old.deleted_at is null)
  execute function expense_counts_write();
--> statement-breakpoint
-- The expenses already stored (tests/integration/expense-counts.test.ts runs this statement again and
-- compares with what the triggers wrote).
insert into expense_counts (company_id, expenses)
select company_id, count(*)
  from expenses
 where deleted_at is null
 group by 1;
--> statement-breakpoint
analyze expense_counts;
