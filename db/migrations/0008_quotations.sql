ALTER TABLE "documents" ADD COLUMN "quotation_id" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "documents_quotation_uq" ON "documents" USING btree ("quotation_id");