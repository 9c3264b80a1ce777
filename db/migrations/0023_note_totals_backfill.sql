-- Credit and debit note totals of every referenced document, recomputed from the notes themselves
-- (issue 14 point 1, docs/decisions/160): accepted notes, and the notes of companies that do not
-- send to Hacienda ('no aplica'), each in the referenced document's currency (through colones at
-- each document's stored exchange rate when they differ: app/domain/receivables.ts noteAmountIn).
with sums as (
  select r.referenced_document_id as id,
    sum(case when n.kind = 'nc' then amt.v else 0 end) as nc,
    sum(case when n.kind = 'nd' then amt.v else 0 end) as nd
  from document_references r
  join documents n on n.id = r.document_id and n.company_id = r.company_id
  join documents d on d.id = r.referenced_document_id and d.company_id = r.company_id
  cross join lateral (
    select round(case
      when n.currency_id = d.currency_id then n.total_comprobante
      when d.currency_id = 1 then n.total_comprobante * (case when n.currency_id = 1 then n.exchange_rate else 1 end) / d.exchange_rate
      else n.total_comprobante * (case when n.currency_id = 1 then n.exchange_rate else 1 end)
    end, 5) as v
  ) amt
  where n.kind in ('nc', 'nd') and n.status in ('aceptado', 'no aplica')
  group by r.referenced_document_id
)
update documents d set credit_note_total = s.nc, debit_note_total = s.nd from sums s where d.id = s.id;
