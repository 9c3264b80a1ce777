CREATE TABLE "expense_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "received_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"clave" text NOT NULL,
	"kind" text NOT NULL,
	"version" text NOT NULL,
	"consecutive" text,
	"issued_at" timestamp with time zone NOT NULL,
	"issuer_name" text NOT NULL,
	"issuer_id_type" text,
	"issuer_id" text NOT NULL,
	"receiver_name" text,
	"receiver_id" text,
	"currency" text DEFAULT 'CRC' NOT NULL,
	"exchange_rate" numeric(18, 5) DEFAULT '1' NOT NULL,
	"subtotal" numeric(18, 5) DEFAULT '0' NOT NULL,
	"discount" numeric(18, 5) DEFAULT '0' NOT NULL,
	"tax" numeric(18, 5) DEFAULT '0' NOT NULL,
	"iva_devuelto" numeric(18, 5) DEFAULT '0' NOT NULL,
	"exonerated" numeric(18, 5) DEFAULT '0' NOT NULL,
	"other_charges" numeric(18, 5) DEFAULT '0' NOT NULL,
	"total" numeric(18, 5) DEFAULT '0' NOT NULL,
	"line_count" integer DEFAULT 0 NOT NULL,
	"data" jsonb,
	"source" text NOT NULL,
	"upload_filename" text,
	"upload_xml" "bytea" NOT NULL,
	"issuer_response_xml" "bytea",
	"issuer_status" text,
	"issuer_detail" text,
	"issuer_checked_at" timestamp with time zone,
	"message" smallint DEFAULT 4 NOT NULL,
	"message_detail" text,
	"expense_category_id" integer,
	"tax_condition" text,
	"creditable_tax" numeric(18, 5),
	"applicable_expense" numeric(18, 5),
	"reject_deadline" date NOT NULL,
	"deadline_warned_at" timestamp with time zone,
	"processed_at" timestamp with time zone,
	"processed_by" integer,
	"status" text DEFAULT 'pendiente' NOT NULL,
	"branch" integer,
	"terminal" integer,
	"message_doc_type" text,
	"message_number" bigint,
	"message_consecutive" text,
	"message_issued_at" timestamp with time zone,
	"send_xml" "bytea",
	"response_xml" "bytea",
	"hacienda_detail" text,
	"hacienda_message" text,
	"submitted_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	"submit_attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"search_words" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, translate(lower(issuer_name || ' ' || issuer_id || ' ' || clave || ' ' || coalesce(consecutive, '')), 'áéíóúüñàèìòù@.,', 'aeiouunaeiou   '))) STORED
);
--> statement-breakpoint
CREATE TABLE "reception_mailboxes" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"uid_validity" bigint,
	"last_uid" bigint DEFAULT 0 NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_error" text,
	"messages_read" integer DEFAULT 0 NOT NULL,
	"documents_ingested" integer DEFAULT 0 NOT NULL,
	"messages_without_document" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reception_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"tax_condition" text DEFAULT '01' NOT NULL,
	"expense_category_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reception_upload_stash" (
	"id" serial PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"position" integer NOT NULL,
	"filename" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "expense_categories" ADD CONSTRAINT "expense_categories_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "received_documents" ADD CONSTRAINT "received_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "received_documents" ADD CONSTRAINT "received_documents_expense_category_id_expense_categories_id_fk" FOREIGN KEY ("expense_category_id") REFERENCES "public"."expense_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reception_mailboxes" ADD CONSTRAINT "reception_mailboxes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reception_settings" ADD CONSTRAINT "reception_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reception_settings" ADD CONSTRAINT "reception_settings_expense_category_id_expense_categories_id_fk" FOREIGN KEY ("expense_category_id") REFERENCES "public"."expense_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reception_upload_stash" ADD CONSTRAINT "reception_upload_stash_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "expense_categories_company_name_uq" ON "expense_categories" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "received_documents_company_clave_uq" ON "received_documents" USING btree ("company_id","clave");--> statement-breakpoint
CREATE INDEX "received_documents_company_issued_idx" ON "received_documents" USING btree ("company_id","issued_at","id");--> statement-breakpoint
CREATE INDEX "received_documents_company_message_issued_idx" ON "received_documents" USING btree ("company_id","message","issued_at","id");--> statement-breakpoint
CREATE INDEX "received_documents_search_words_idx" ON "received_documents" USING gin ("search_words") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "received_documents_pending_deadline_idx" ON "received_documents" USING btree ("company_id","reject_deadline") WHERE message = 4;--> statement-breakpoint
CREATE INDEX "received_documents_pipeline_idx" ON "received_documents" USING btree ("status") WHERE status in ('esperando', 'por enviar', 'procesando');--> statement-breakpoint
CREATE UNIQUE INDEX "received_documents_message_number_uq" ON "received_documents" USING btree ("company_id","branch","terminal","message_doc_type","message_number");--> statement-breakpoint
CREATE INDEX "reception_upload_stash_token_idx" ON "reception_upload_stash" USING btree ("token");--> statement-breakpoint
CREATE INDEX "reception_upload_stash_created_idx" ON "reception_upload_stash" USING btree ("created_at");