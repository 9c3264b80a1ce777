CREATE TABLE "pending_documents" (
	"company_id" integer NOT NULL,
	"status" text NOT NULL,
	"documents" integer NOT NULL,
	CONSTRAINT "pending_documents_company_id_status_pk" PRIMARY KEY("company_id","status")
);
