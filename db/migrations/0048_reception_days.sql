CREATE TABLE "reception_days" (
	"company_id" integer NOT NULL,
	"day" date NOT NULL,
	"documents" integer NOT NULL,
	CONSTRAINT "reception_days_company_id_day_pk" PRIMARY KEY("company_id","day")
);
