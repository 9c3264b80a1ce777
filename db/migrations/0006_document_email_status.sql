ALTER TABLE "documents" ADD COLUMN "email_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "email_sent_to" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "email_error" text;