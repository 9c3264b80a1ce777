CREATE TABLE "expense_days" (
	"company_id" integer NOT NULL,
	"day" date NOT NULL,
	"category_id" integer NOT NULL,
	"expenses" integer NOT NULL,
	"amount_crc" numeric NOT NULL,
	CONSTRAINT "expense_days_company_id_day_category_id_pk" PRIMARY KEY("company_id","day","category_id")
);
