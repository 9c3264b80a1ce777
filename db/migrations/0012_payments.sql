CREATE TABLE "banks" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"payment_form" text NOT NULL,
	"paid_on" date NOT NULL,
	"amount" numeric(18, 5) NOT NULL,
	"currency_id" integer NOT NULL,
	"exchange_rate" numeric(18, 5) NOT NULL,
	"description" text NOT NULL,
	"reference" text,
	"bank_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by" integer
);
--> statement-breakpoint
ALTER TABLE "banks" ADD CONSTRAINT "banks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_bank_id_banks_id_fk" FOREIGN KEY ("bank_id") REFERENCES "public"."banks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "banks_company_name_uq" ON "banks" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE INDEX "payments_company_paid_idx" ON "payments" USING btree ("company_id","paid_on","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "payments_document_idx" ON "payments" USING btree ("document_id");