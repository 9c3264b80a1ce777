// The welcome advertisement (spec part 1 §2.3 Advertisement admin, §4 Welcome advertisement).
// One row; every save increments `code` so each user sees the new version once.
import { asc, eq } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import type { Db } from "../../db/client.ts";
import { advertisements } from "../../db/schema/index.ts";

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

export async function saveAdvertisement(db: Db, input: { active: boolean; title: string; content: string }, now: Date) {
  const contentHtml = sanitizeAdvertisement(input.content);
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ id: advertisements.id, code: advertisements.code }).from(advertisements).orderBy(asc(advertisements.id)).limit(1).for("update");
    if (!row) {
      const [created] = await tx.insert(advertisements).values({ title: input.title, contentHtml, active: input.active, code: 1, updatedAt: now }).returning();
      return created;
    }
    const [updated] = await tx
      .update(advertisements)
      .set({ title: input.title, contentHtml, active: input.active, code: row.code + 1, updatedAt: now })
      .where(eq(advertisements.id, row.id))
      .returning();
    return updated;
  });
}
