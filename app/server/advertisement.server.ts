// The welcome advertisement (spec part 1 §2.3 Advertisement admin, §4 Welcome advertisement).
// One row; every save increments `code` so each user sees the new version once.
import { asc, eq, sql, type SQLWrapper } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import type { Db } from "../../db/client.ts";
import { advertisements } from "../../db/schema/index.ts";

export const ADVERTISEMENT_SUPER_ADMIN_ONLY = "Solo el superadministrador puede cambiar el anuncio: lo ven los usuarios de todas las empresas.";

/** The HTML whitelist: p, br, strong, em, u, a[href http/https/mailto], lists, h2–h4, img[src https]. */
export function sanitizeAdvertisement(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ["p", "br", "strong", "em", "u", "a", "ul", "ol", "li", "h2", "h3", "h4", "img"],
    allowedAttributes: { a: ["href", "title"], img: ["src", "alt", "width", "height"] },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["https"] },
    allowedSchemesAppliedToAttributes: ["href", "src"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow" }) },
  });
}

export async function currentAdvertisement(db: Db) {
  const [row] = await db.select().from(advertisements).orderBy(asc(advertisements.id)).limit(1);
  return row;
}

/**
 * The id of the advertisement the dashboards show, as a subquery: the active one, only when the
 * super-admin (`superAdminEmail`, lower case) saved it. One an ordinary admin saved before this rule
 * (or nobody known) reaches nobody. The session's query reads its code with it (decision 147).
 */
export function shownAdvertisementId(superAdminEmail: SQLWrapper | string) {
  return sql`(select a.id from advertisements a join users su on su.id = a.saved_by_id
     where a.active and lower(su.email) = ${superAdminEmail} order by a.id limit 1)`;
}

/** The advertisement the dashboards show (shownAdvertisementId), or undefined. */
export async function shownAdvertisement(db: Db, superAdminEmail: string) {
  if (!superAdminEmail) return undefined;
  const [row] = await db
    .select({ title: advertisements.title, contentHtml: advertisements.contentHtml, code: advertisements.code })
    .from(advertisements)
    .where(eq(advertisements.id, shownAdvertisementId(superAdminEmail)));
  return row;
}

export async function saveAdvertisement(db: Db, input: { active: boolean; title: string; content: string }, now: Date, savedById: number) {
  const contentHtml = sanitizeAdvertisement(input.content);
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ id: advertisements.id, code: advertisements.code }).from(advertisements).orderBy(asc(advertisements.id)).limit(1).for("update");
    if (!row) {
      const [created] = await tx.insert(advertisements).values({ title: input.title, contentHtml, active: input.active, code: 1, updatedAt: now, savedById }).returning();
      return created;
    }
    const [updated] = await tx
      .update(advertisements)
      .set({ title: input.title, contentHtml, active: input.active, code: row.code + 1, updatedAt: now, savedById })
      .where(eq(advertisements.id, row.id))
      .returning();
    return updated;
  });
}
