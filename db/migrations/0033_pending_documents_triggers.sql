-- The documents waiting for Hacienda, counted by company and state (pending_documents, migration
-- pending_documents; docs/decisions/158), kept by the database: every insert, change of state or
-- company, or deletion of a document moves it from the count it was in to the count it is in now,
-- and the documents already stored are counted here. Only the states of the pending banner are
-- counted ('por enviar', 'procesando'), whatever else the document is (as the count it replaces,
-- app/server/hacienda-pipeline.server.ts pendingCount before this migration).
create function pending_documents_add(company integer, doc_status text, n integer)
returns void language plpgsql as $$
begin
  if doc_status not in ('por enviar', 'procesando') then
    return;
  end if;
  insert into pending_documents (company_id, status, documents)
  values (company, doc_status, n)
  on conflict (company_id, status)
  do update set documents = pending_documents.documents + excluded.documents;
  -- A state left without documents is no row at all.
  delete from pending_documents where company_id = company and status = doc_status and documents = 0;
end
$$;
--> statement-breakpoint
create function pending_documents_write() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform pending_documents_add(old.company_id, old.status, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform pending_documents_add(new.company_id, new.status, 1);
  end if;
  return null;
end
$$;
--> statement-breakpoint
-- Deferred to the commit, as document_days (migration document_days_triggers): a company's count is
-- one row that every issued, sent and answered document changes, so it is locked only while the
-- transaction commits.
create constraint trigger pending_documents_insert after insert on documents
  deferrable initially deferred
  for each row when (new.status in ('por enviar', 'procesando'))
  execute function pending_documents_write();
--> statement-breakpoint
create constraint trigger pending_documents_update after update on documents
  deferrable initially deferred
  for each row when (old.status is distinct from new.status or old.company_id is distinct from new.company_id)
  execute function pending_documents_write();
--> statement-breakpoint
create constraint trigger pending_documents_delete after delete on documents
  deferrable initially deferred
  for each row when (old.status in ('por enviar', 'procesando'))
  execute function pending_documents_write();
--> statement-breakpoint
-- The documents already stored (tests/integration/pending-documents.test.ts runs this statement again
-- and compares with what the triggers wrote).
insert into pending_documents (company_id, status, documents)
select company_id, status, count(*)
  from documents
 where status in ('por enviar', 'procesando')
 group by 1, 2;
--> statement-breakpoint
analyze pending_documents;
