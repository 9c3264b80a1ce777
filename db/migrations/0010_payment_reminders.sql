ALTER TABLE "documents" ADD COLUMN "remind_payment" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "reminders_sent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "last_reminder_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "documents_reminders_due_idx" ON "documents" USING btree ("expiration_date") WHERE remind_payment and reminders_sent = 0;