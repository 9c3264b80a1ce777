ALTER TABLE "recurring_documents" ADD COLUMN "number" integer;--> statement-breakpoint
ALTER TABLE "recurring_documents" ADD COLUMN "currency" text DEFAULT 'CRC' NOT NULL;--> statement-breakpoint
ALTER TABLE "recurring_documents" ADD COLUMN "subtotal" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "recurring_documents" ADD COLUMN "discount" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "recurring_documents" ADD COLUMN "tax" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "recurring_documents" ADD COLUMN "total" numeric(18, 5) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "recurring_documents" ADD COLUMN "remind_payment" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "recurring_documents" ADD COLUMN "updated_at" timestamp with time zone;