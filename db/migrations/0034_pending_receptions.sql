CREATE TABLE "pending_receptions" (
	"company_id" integer NOT NULL,
	"reject_deadline" date NOT NULL,
	"documents" integer NOT NULL,
	CONSTRAINT "pending_receptions_company_id_reject_deadline_pk" PRIMARY KEY("company_id","reject_deadline")
);
