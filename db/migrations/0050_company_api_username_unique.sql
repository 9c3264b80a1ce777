-- API usernames are unique whatever their case among the companies not archived (docs/decisions/180):
-- the sign-in (app/server/api/tokens.server.ts issueToken) compares lower(username_api), so two
-- companies with 'Caja' and 'caja' were one username, and only the oldest signed in. The company form
-- and the API configuration screen refuse a taken username; this index backs them against a save
-- that races another. Archived companies (deleted_at set) do not count: the sign-in ignores them and
-- the company form does not hold their identification either.
--
-- A database that already has companies sharing a username (before 2026-11-27 nothing refused it):
-- the company that signs in with it today keeps it, that is the oldest (lowest id) of those with an
-- API password, else the oldest. Every other company of the group loses its API credentials
-- (username_api and password_api_hash set to null; they could not sign in anyway) and the API
-- sessions opened with them end (closed_reason 'api-username', refresh token dropped). Their admins
-- set a new username and password in the company form or on /config-api/:company_id. Companies are
-- otherwise untouched; archived companies are left as they are.
with grouped as (
  select id, row_number() over (partition by lower(username_api) order by password_api_hash is null, id) as rank
  from companies
  where username_api is not null and deleted_at is null
),
losers as (
  select id from grouped where rank > 1
),
closed as (
  update sessions set closed_at = now(), closed_reason = 'api-username', refresh_hash = null
  where kind = 'api' and closed_at is null and api_company_id in (select id from losers)
)
update companies set username_api = null, password_api_hash = null
where id in (select id from losers);
--> statement-breakpoint
CREATE UNIQUE INDEX "companies_username_api_unique" ON "companies" USING btree (lower("username_api")) WHERE "companies"."deleted_at" is null;
