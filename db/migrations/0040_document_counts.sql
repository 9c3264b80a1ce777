CREATE TABLE "document_counts" (
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"documents" integer NOT NULL,
	CONSTRAINT "document_counts_company_id_kind_pk" PRIMARY KEY("company_id","kind")
);
--> statement-breakpoint
CREATE TABLE "figures_versions" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
