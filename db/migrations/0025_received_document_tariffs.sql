CREATE TABLE "received_document_tariffs" (
	"received_document_id" integer NOT NULL,
	"ordinal" integer NOT NULL,
	"company_id" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"message" smallint NOT NULL,
	"status" text NOT NULL,
	"tarifa_code" text,
	"base" numeric NOT NULL,
	"tax" numeric NOT NULL,
	"base_crc" numeric NOT NULL,
	"tax_crc" numeric NOT NULL,
	"creditable_crc" numeric NOT NULL,
	CONSTRAINT "received_document_tariffs_received_document_id_ordinal_pk" PRIMARY KEY("received_document_id","ordinal")
);
--> statement-breakpoint
ALTER TABLE "received_document_tariffs" ADD CONSTRAINT "received_document_tariffs_received_document_id_received_documents_id_fk" FOREIGN KEY ("received_document_id") REFERENCES "public"."received_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "received_document_tariffs_month_idx" ON "received_document_tariffs" USING btree ("company_id","issued_at","tarifa_code","base_crc","tax_crc","creditable_crc") WHERE message in (1, 2) and status not in ('rechazado', 'no enviado');