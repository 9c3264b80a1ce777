CREATE TABLE "client_counts" (
	"company_id" integer NOT NULL,
	"provider" boolean NOT NULL,
	"active" boolean NOT NULL,
	"clients" integer NOT NULL,
	CONSTRAINT "client_counts_company_id_provider_active_pk" PRIMARY KEY("company_id","provider","active")
);
--> statement-breakpoint
DROP INDEX "clients_live_count_idx";