CREATE TABLE "document_days" (
	"company_id" integer NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"rejected" boolean NOT NULL,
	"documents" integer NOT NULL,
	"total_crc" numeric NOT NULL,
	CONSTRAINT "document_days_company_id_day_kind_rejected_pk" PRIMARY KEY("company_id","day","kind","rejected")
);
--> statement-breakpoint
CREATE INDEX "documents_live_kind_issued_idx" ON "documents" USING btree ("company_id","kind","issued_at","id") WHERE deleted_at is null;