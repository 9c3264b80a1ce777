// A page compressed in one piece and written with one write (docs/decisions/202-one-write-per-page-and-dashboard-with-the-session.md).
//
// The `compression` middleware compresses a response as a stream: its zlib work goes to the thread
// pool and comes back through the event loop, and the answer leaves in three writes to the socket —
// the headers with the gzip header, the compressed page, and the end of the chunked encoding. A page
// is already whole in memory (server/request-handler.ts), so here it is compressed at once, with the
// encoding and level `compression` would have chosen (brotli at quality 4 for clients that accept it,
// gzip at zlib's default level otherwise), and sent with its length: one write.
import zlib from "node:zlib";

export type PageEncoding = "br" | "gzip" | "identity";

/** Pages smaller than this are sent as they are (the `compression` middleware's threshold). */
export const COMPRESS_FROM_BYTES = 1024;

const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * The encoding of a page for a request's Accept-Encoding: brotli, else gzip, whichever the client
 * accepts with the higher weight (brotli on a tie), or none. A coding it does not name is accepted
 * with the weight of `*`, if given; a weight of 0 refuses it.
 */
export function pageEncoding(acceptEncoding: string | undefined): PageEncoding {
  if (!acceptEncoding) return "identity";
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get("*") ?? 0;
  const br = weightOf("br");
  const gzip = weightOf("gzip");
  if (br > 0 && br >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return "identity";
}

/** The page in that encoding. */
export function encodePage(page: Buffer, encoding: PageEncoding): Buffer {
  if (encoding === "br") return zlib.brotliCompressSync(page, BROTLI);
  if (encoding === "gzip") return zlib.gzipSync(page);
  return page;
}
