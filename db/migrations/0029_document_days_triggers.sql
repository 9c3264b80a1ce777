-- The documents added up by day (document_days, migration document_days; docs/decisions/156), kept by
-- the database: every insert, change or deletion of a document moves its count and its total in
-- colones from the row it was in to the row it is in now, and the documents already stored are
-- added up here.
--
-- A document's row: its company, its Costa Rica day of issue, its kind and whether Hacienda rejected
-- it; its total in colones is total_comprobante × exchange_rate unrounded, as the dashboard summed it
-- (db/queries/dashboard.ts dailySums before this migration), so the sums are the same to the last digit.
create function document_days_add(company integer, issued timestamptz, doc_kind text, is_rejected boolean, n integer, amount numeric)
returns void language plpgsql as $$
declare
  issued_day date := (issued at time zone 'America/Costa_Rica')::date;
begin
  insert into document_days (company_id, day, kind, rejected, documents, total_crc)
  values (company, issued_day, doc_kind, is_rejected, n, amount)
  on conflict (company_id, day, kind, rejected)
  do update set documents = document_days.documents + excluded.documents, total_crc = document_days.total_crc + excluded.total_crc;
  -- A day, kind and state left without documents is no row at all, as in the sums it replaces.
  delete from document_days
   where company_id = company and day = issued_day and kind = doc_kind and rejected = is_rejected and documents = 0;
end
$$;
--> statement-breakpoint
create function document_days_write() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform document_days_add(old.company_id, old.issued_at, old.kind, old.status = 'rechazado', -1, -(old.total_comprobante * old.exchange_rate));
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform document_days_add(new.company_id, new.issued_at, new.kind, new.status = 'rechazado', 1, new.total_comprobante * new.exchange_rate);
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Deferred to the commit: a busy company's day is one row that every document of the day changes, so
-- it is locked only while the transaction commits, not from the document's insert on (issuing signs
-- and stores the XML after it; two terminals issue side by side).
create constraint trigger document_days_insert after insert on documents
  deferrable initially deferred
  for each row execute function document_days_write();
--> statement-breakpoint
-- Only when a column the row is decided by changes: payments, e-mail, attempts and the XML do not.
create constraint trigger document_days_update after update on documents
  deferrable initially deferred
  for each row when (
    old.company_id is distinct from new.company_id or old.issued_at is distinct from new.issued_at or old.kind is distinct from new.kind
    or (old.status = 'rechazado') is distinct from (new.status = 'rechazado')
    or old.total_comprobante is distinct from new.total_comprobante or old.exchange_rate is distinct from new.exchange_rate
  ) execute function document_days_write();
--> statement-breakpoint
create constraint trigger document_days_delete after delete on documents
  deferrable initially deferred
  for each row execute function document_days_write();
--> statement-breakpoint
-- The documents already stored (tests/integration/document-days.test.ts runs this statement again and
-- compares with what the triggers wrote).
insert into document_days (company_id, day, kind, rejected, documents, total_crc)
select company_id, (issued_at at time zone 'America/Costa_Rica')::date, kind, status = 'rechazado', count(*), sum(total_comprobante * exchange_rate)
  from documents
 group by 1, 2, 3, 4;
--> statement-breakpoint
analyze document_days;
