CREATE TABLE "expense_counts" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"expenses" integer NOT NULL
);
