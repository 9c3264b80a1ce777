ALTER TABLE "payments" ADD COLUMN "rep_document_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "rep_note" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_rep_document_id_documents_id_fk" FOREIGN KEY ("rep_document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;