-- Two things kept by the database for the pages read most (docs/decisions/200).
--
-- 1. The live documents (deleted_at null) counted by company and kind (document_counts, migration
-- document_counts): every insert, deletion, change of company or kind, or deletion mark of a document
-- moves it from the count it was in to the count it is in now, and the documents already stored are
-- counted here. A document list without search, filter or client reads its total from these rows
-- (db/queries/document-lists.ts) instead of counting its index.
create function document_counts_add(company integer, doc_kind text, n integer)
returns void language plpgsql as $$
begin
  insert into document_counts (company_id, kind, documents)
  values (company, doc_kind, n)
  on conflict (company_id, kind)
  do update set documents = document_counts.documents + excluded.documents;
  -- A kind left without live documents is no row at all.
  delete from document_counts where company_id = company and kind = doc_kind and documents = 0;
end
$$;
--> statement-breakpoint
create function document_counts_write() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.deleted_at is null then
    perform document_counts_add(old.company_id, old.kind, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.deleted_at is null then
    perform document_counts_add(new.company_id, new.kind, 1);
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Deferred to the commit, as document_days (migration document_days_triggers): a company's count of a
-- kind is one row that every document of the kind changes, so it is locked only while the
-- transaction commits (two terminals issue side by side).
create constraint trigger document_counts_insert after insert on documents
  deferrable initially deferred
  for each row when (new.deleted_at is null)
  execute function document_counts_write();
--> statement-breakpoint
create constraint trigger document_counts_update after update on documents
  deferrable initially deferred
  for each row when (
    old.company_id is distinct from new.company_id or old.kind is distinct from new.kind
    or (old.deleted_at is null) <> (new.deleted_at is null)
  ) execute function document_counts_write();
--> statement-breakpoint
create constraint trigger document_counts_delete after delete on documents
  deferrable initially deferred
  for each row when (old.deleted_at is null)
  execute function document_counts_write();
--> statement-breakpoint
-- The documents already stored (tests/integration/document-counts.test.ts runs this statement again
-- and compares with what the triggers wrote).
insert into document_counts (company_id, kind, documents)
select company_id, kind, count(*)
  from documents
 where deleted_at is null
 group by 1, 2;
--> statement-breakpoint
analyze document_counts;
--> statement-breakpoint
-- 2. The version of a company's dashboard figures (figures_versions): one more on every change of its
-- rows in the tables the dashboard's sums and expenses are read from. Those rows are written by
-- deferred triggers, so the number moves when the documents, expenses or received documents behind
-- them commit. A company without a row is at version 0.
create function figures_versions_bump() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    insert into figures_versions (company_id, version) values (old.company_id, 1)
    on conflict (company_id) do update set version = figures_versions.version + 1;
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.company_id is distinct from old.company_id) then
    insert into figures_versions (company_id, version) values (new.company_id, 1)
    on conflict (company_id) do update set version = figures_versions.version + 1;
  end if;
  return null;
end
$$;
--> statement-breakpoint
create trigger figures_versions_document_days after insert or update or delete on document_days
  for each row execute function figures_versions_bump();
--> statement-breakpoint
create trigger figures_versions_expense_days after insert or update or delete on expense_days
  for each row execute function figures_versions_bump();
--> statement-breakpoint
create trigger figures_versions_received_expense_days after insert or update or delete on received_expense_days
  for each row execute function figures_versions_bump();
--> statement-breakpoint
-- A category's name is shown in the month's expenses; its company decides whose sums it is in.
create trigger figures_versions_expense_categories after insert or update or delete on expense_categories
  for each row execute function figures_versions_bump();
