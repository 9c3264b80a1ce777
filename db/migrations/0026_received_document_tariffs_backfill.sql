-- Each received document's IVA by tariff, kept by the database (docs/decisions/193): the rows of
-- received_document_tariffs (migration received_document_tariffs) are computed from the document by
-- one function, written by triggers in the same transaction as any insert of a received document or
-- any change of a column they come from, and filled here for the documents already stored.
--
-- received_document_tariff_rows(doc): the computation the IVA summary's purchases made per document
-- until then (db/queries/reports.ts receivedByTariff, decision 153), expression for expression, so the
-- sums are the same céntimos: the factor f (1 in colones, else the TipoCambio; negative for a credit
-- note); the tariffs of data.IvaPorTarifa when it is a non-empty array, else one row without a tariff
-- with subtotal − discount and the tax; per row the base and the tax × f and the creditable IVA
-- (MontoTotalImpuestoAcreditar shared in proportion to the row's IVA, all of it to a single row),
-- each rounded half-up to céntimos.
create function received_document_tariff_rows(doc received_documents)
returns table (ordinal integer, tarifa_code text, base numeric, tax numeric, base_crc numeric, tax_crc numeric, creditable_crc numeric)
language sql stable as $$
  select t.ordinal, t.tarifa, t.base, t.tax,
         round(t.base * d.f, 2),
         round(t.tax * d.f, 2),
         round(case when t.all_tax > 0 then d.creditable * t.tax / t.all_tax
                    when t.n = 1 then d.creditable else 0 end * d.f, 2)
    from (select case when doc.currency = 'CRC' then 1 else doc.exchange_rate end * case when doc.kind = 'NC' then -1 else 1 end as f,
                 coalesce(doc.creditable_tax, 0) as creditable,
                 case when (case when jsonb_typeof(doc.data->'IvaPorTarifa') = 'array' then jsonb_array_length(doc.data->'IvaPorTarifa') > 0 else false end)
                      then doc.data->'IvaPorTarifa' end as tariffs) d
   cross join lateral (
     select e.ordinal, e.tarifa, e.base, e.tax, sum(e.tax) over () as all_tax, count(*) over () as n
       from (
         select x.ordinal::integer as ordinal, nullif(x.value->>'tarifa', '') as tarifa, (x.value->>'base')::numeric as base, (x.value->>'impuesto')::numeric as tax
           from jsonb_array_elements(coalesce(d.tariffs, '[]'::jsonb)) with ordinality as x(value, ordinal)
         union all
         select 0, null, doc.subtotal - doc.discount, doc.tax
          where d.tariffs is null
       ) e
   ) t
$$;
--> statement-breakpoint
-- A document's rows, rewritten: every write path (upload, e-mail and API intake, Hacienda's answers,
-- the company's decision, the message's pipeline, the deadlines) goes through these triggers.
create function received_document_tariffs_write() returns trigger language plpgsql as $$
begin
  delete from received_document_tariffs where received_document_id = new.id;
  insert into received_document_tariffs (received_document_id, ordinal, company_id, issued_at, message, status, tarifa_code, base, tax, base_crc, tax_crc, creditable_crc)
  select new.id, t.ordinal, new.company_id, new.issued_at, new.message, new.status, t.tarifa_code, t.base, t.tax, t.base_crc, t.tax_crc, t.creditable_crc
    from received_document_tariff_rows(new) t;
  return null;
end
$$;
--> statement-breakpoint
create trigger received_document_tariffs_insert after insert on received_documents
  for each row execute function received_document_tariffs_write();
--> statement-breakpoint
-- Only when a column the rows are computed from (or carry) changes: the jobs' other updates
-- (attempts, errors, XML) leave them alone.
create trigger received_document_tariffs_update after update on received_documents
  for each row when (
    old.data is distinct from new.data or old.kind is distinct from new.kind or old.currency is distinct from new.currency
    or old.exchange_rate is distinct from new.exchange_rate or old.subtotal is distinct from new.subtotal or old.discount is distinct from new.discount
    or old.tax is distinct from new.tax or old.creditable_tax is distinct from new.creditable_tax or old.issued_at is distinct from new.issued_at
    or old.company_id is distinct from new.company_id or old.message is distinct from new.message or old.status is distinct from new.status
  ) execute function received_document_tariffs_write();
--> statement-breakpoint
-- The documents already stored (tests/integration/received-document-tariffs.test.ts runs this
-- statement again and compares with what the triggers wrote).
insert into received_document_tariffs (received_document_id, ordinal, company_id, issued_at, message, status, tarifa_code, base, tax, base_crc, tax_crc, creditable_crc)
select r.id, t.ordinal, r.company_id, r.issued_at, r.message, r.status, t.tarifa_code, t.base, t.tax, t.base_crc, t.tax_crc, t.creditable_crc
  from received_documents r
 cross join lateral received_document_tariff_rows(r) t;
--> statement-breakpoint
analyze received_document_tariffs;
