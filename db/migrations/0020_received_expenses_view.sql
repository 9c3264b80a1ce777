-- Accepted received documents with an expense category, as expenses of that category
-- (issue 12 item 7; docs/decisions/176). The dashboard and the expenses report read this view beside
-- the expenses table: one row per document, amount in the document's currency and in colones (with
-- the document's own exchange rate). The amount is the applicable expense the company declared in its
-- MensajeReceptor (MontoTotalDeGastoAplicable), else the total less the creditable tax; a credit note
-- counts negative. Rejected documents, and messages Hacienda rejected, do not count.
create view received_expenses as
select r.company_id,
       r.id as received_document_id,
       r.expense_category_id,
       c.name as category_name,
       r.issued_at as spent_at,
       r.currency,
       r.exchange_rate,
       (case when r.kind = 'NC' then -1 else 1 end) * coalesce(r.applicable_expense, r.total - coalesce(r.creditable_tax, 0)) as amount,
       (case when r.kind = 'NC' then -1 else 1 end) * coalesce(r.applicable_expense, r.total - coalesce(r.creditable_tax, 0)) * r.exchange_rate as amount_crc,
       r.issuer_name as description,
       r.consecutive as reference
  from received_documents r
  join expense_categories c on c.id = r.expense_category_id and c.company_id = r.company_id
 where r.message in (1, 2) and r.status not in ('rechazado', 'no enviado');
