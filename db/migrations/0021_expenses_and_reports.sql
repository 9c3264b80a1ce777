CREATE TABLE "expense_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"stored_name" text NOT NULL,
	"original_name" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "expense_payment_methods" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "expenses_company_spent_idx";--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "spent_on" date NOT NULL;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "description" text NOT NULL;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "amount" numeric(18, 5) NOT NULL;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "category_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "payment_method_code" text;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "payment_method_id" integer;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "attachment_id" integer;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "deleted_by" integer;--> statement-breakpoint
ALTER TABLE "expense_categories" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "expense_attachments" ADD CONSTRAINT "expense_attachments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_payment_methods" ADD CONSTRAINT "expense_payment_methods_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "expense_attachments_stored_name_uq" ON "expense_attachments" USING btree ("stored_name");--> statement-breakpoint
CREATE INDEX "expense_attachments_company_idx" ON "expense_attachments" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "expense_payment_methods_company_name_uq" ON "expense_payment_methods" USING btree ("company_id",lower("name"));--> statement-breakpoint
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_category_id_expense_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."expense_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_payment_method_id_expense_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."expense_payment_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_attachment_id_expense_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."expense_attachments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "expenses_company_spent_idx" ON "expenses" USING btree ("company_id","spent_on","id") WHERE deleted_at is null;--> statement-breakpoint
ALTER TABLE "expenses" DROP COLUMN "name";--> statement-breakpoint
ALTER TABLE "expenses" DROP COLUMN "spent_at";--> statement-breakpoint
ALTER TABLE "expenses" DROP COLUMN "total";--> statement-breakpoint
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_one_payment_method" CHECK ((payment_method_code is null) <> (payment_method_id is null));