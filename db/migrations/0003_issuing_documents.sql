CREATE TABLE "document_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"position" integer NOT NULL,
	"item_id" integer,
	"code" text,
	"cabys" text,
	"description" text NOT NULL,
	"quantity" numeric(16, 3) NOT NULL,
	"unit" text NOT NULL,
	"unit_price" numeric(18, 5) NOT NULL,
	"discount_percent" numeric(8, 5) DEFAULT '0' NOT NULL,
	"tax_code" text,
	"tarifa_code" text,
	"tax_rate" numeric(8, 5) DEFAULT '0' NOT NULL,
	"exoneration" jsonb,
	"subtotal" numeric(18, 5) NOT NULL,
	"discount" numeric(18, 5) NOT NULL,
	"tax" numeric(18, 5) NOT NULL,
	"exonerated" numeric(18, 5) NOT NULL,
	"total" numeric(18, 5) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_references" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"referenced_document_id" integer,
	"doc_type" text NOT NULL,
	"number" text,
	"issued_at" timestamp with time zone NOT NULL,
	"code" text,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "recurring_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"client_id" integer,
	"created_by" integer,
	"draft" jsonb NOT NULL,
	"start_day" date NOT NULL,
	"cycle" text NOT NULL,
	"every" integer DEFAULT 1 NOT NULL,
	"next_send_date" date NOT NULL,
	"last_sent_date" date,
	"paused" boolean DEFAULT false NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "branch" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "terminal" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "number" bigint;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "consecutivo" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "clave" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "situacion" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "sale_condition" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "credit_days" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "expiration_date" date;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "payments" jsonb;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "terms" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "emails" jsonb;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "client_snapshot" jsonb;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "draft" jsonb;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "subtotal" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "discount" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "tax" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "exonerated" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "iva_devuelto" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "other_charges" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "totals" jsonb;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "payment_amount" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "credit_note_total" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "signed_xml" "bytea";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "response_xml" "bytea";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "hacienda_detail" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "hacienda_message" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "submit_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "replaces_document_id" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "recurring_id" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "recurring_period" date;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_references" ADD CONSTRAINT "document_references_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_documents" ADD CONSTRAINT "recurring_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_lines_document_idx" ON "document_lines" USING btree ("document_id","position");--> statement-breakpoint
CREATE INDEX "document_references_document_idx" ON "document_references" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "document_references_referenced_idx" ON "document_references" USING btree ("company_id","referenced_document_id");--> statement-breakpoint
CREATE INDEX "recurring_documents_due_idx" ON "recurring_documents" USING btree ("next_send_date") WHERE not paused and deleted_at is null;--> statement-breakpoint
CREATE INDEX "recurring_documents_company_idx" ON "recurring_documents" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_clave_uq" ON "documents" USING btree ("clave");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_number_uq" ON "documents" USING btree ("company_id","kind","branch","terminal","number");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_recurring_period_uq" ON "documents" USING btree ("recurring_id","recurring_period");--> statement-breakpoint
CREATE INDEX "documents_pending_idx" ON "documents" USING btree ("company_id","status") WHERE status in ('por enviar', 'procesando');