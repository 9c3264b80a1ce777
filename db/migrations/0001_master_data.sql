CREATE TABLE "cabys_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL,
	"tax_rate" numeric(7, 4) NOT NULL,
	"categories" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"name" text,
	"email" text,
	"workstation" text,
	"send_copy_email_invoices" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"comercial_name" text,
	"identification_type_id" integer NOT NULL,
	"identification" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"address" text NOT NULL,
	"country_id" integer DEFAULT 60 NOT NULL,
	"province_number" integer,
	"canton_number" integer,
	"district_number" integer,
	"barrio" text,
	"economic_activity_code" text,
	"economic_activity_name" text,
	"found_company_name" text,
	"found_regimen" text,
	"provider" boolean DEFAULT false NOT NULL,
	"generic" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "economic_activities" (
	"code" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"currency_code" text NOT NULL,
	"rate_date" text NOT NULL,
	"buy" numeric(18, 5) NOT NULL,
	"sell" numeric(18, 5) NOT NULL,
	"source" text NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_currency_code_rate_date_pk" PRIMARY KEY("currency_code","rate_date")
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"cabys_code" text,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"category_id" integer NOT NULL,
	"unit_code" text NOT NULL,
	"tax_type_id" integer NOT NULL,
	"currency_id" integer DEFAULT 2 NOT NULL,
	"price" numeric(18, 5) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "students" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"surname" text NOT NULL,
	"identification" text,
	"email" text,
	"phone" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tax_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"rate" numeric(7, 4) NOT NULL,
	"tax_code" text DEFAULT '01' NOT NULL,
	"vat_code" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_counters" (
	"company_id" integer NOT NULL,
	"branch" integer DEFAULT 1 NOT NULL,
	"terminal" integer DEFAULT 1 NOT NULL,
	"doc_type" text NOT NULL,
	"next_number" bigint DEFAULT 1 NOT NULL,
	CONSTRAINT "document_counters_company_id_branch_terminal_doc_type_pk" PRIMARY KEY("company_id","branch","terminal","doc_type")
);
--> statement-breakpoint
CREATE TABLE "email_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"protocol" text DEFAULT 'smtp' NOT NULL,
	"encryption" text,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"username" text NOT NULL,
	"password_enc" text NOT NULL,
	"from_email" text,
	"from_name" text,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hacienda_configs" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"environment" text DEFAULT 'staging' NOT NULL,
	"sandbox_url" text,
	"branch" integer DEFAULT 1 NOT NULL,
	"terminal" integer DEFAULT 1 NOT NULL,
	"username" text,
	"password_enc" text,
	"pin_enc" text,
	"key_enc" text,
	"key_filename" text,
	"key_subject" text,
	"key_cedula" text,
	"key_not_before" timestamp with time zone,
	"key_not_after" timestamp with time zone,
	"email_rejection" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "terms" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"body" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "client_id" integer;--> statement-breakpoint
ALTER TABLE "client_contacts" ADD CONSTRAINT "client_contacts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_types" ADD CONSTRAINT "tax_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_counters" ADD CONSTRAINT "document_counters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_configs" ADD CONSTRAINT "email_configs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hacienda_configs" ADD CONSTRAINT "hacienda_configs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terms" ADD CONSTRAINT "terms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cabys_description_idx" ON "cabys_codes" USING btree (lower("description"));--> statement-breakpoint
CREATE INDEX "client_contacts_client_idx" ON "client_contacts" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "clients_company_list_idx" ON "clients" USING btree ("company_id","provider","active","name");--> statement-breakpoint
CREATE INDEX "clients_company_identification_idx" ON "clients" USING btree ("company_id","identification");--> statement-breakpoint
CREATE INDEX "items_company_name_idx" ON "items" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "students_company_idx" ON "students" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "tax_types_company_idx" ON "tax_types" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "email_configs_company_idx" ON "email_configs" USING btree ("company_id","kind");--> statement-breakpoint
CREATE INDEX "email_templates_company_idx" ON "email_templates" USING btree ("company_id","type");--> statement-breakpoint
CREATE INDEX "terms_company_idx" ON "terms" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "documents_client_idx" ON "documents" USING btree ("company_id","client_id");