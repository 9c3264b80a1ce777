DROP INDEX "documents_paid_issued_idx";--> statement-breakpoint
DROP INDEX "documents_unpaid_issued_idx";--> statement-breakpoint
ALTER TABLE "general_configurations" ADD COLUMN "print_format" text DEFAULT 'a4' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "issuer_snapshot" jsonb;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "debit_note_total" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
CREATE INDEX "documents_paid_issued_idx" ON "documents" USING btree ("company_id","kind","issued_at","id") WHERE not (payment_amount + credit_note_total < total_comprobante + debit_note_total);--> statement-breakpoint
CREATE INDEX "documents_unpaid_issued_idx" ON "documents" USING btree ("company_id","kind","issued_at","id") WHERE payment_amount + credit_note_total < total_comprobante + debit_note_total;