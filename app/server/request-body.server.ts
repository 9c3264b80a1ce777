// Reading a request body inside a route with a byte limit of its own: the HTTP layer already limits
// every route (server/request-handler.ts), but a route that reads raw text keeps its own bound so it
// holds wherever the route runs (tests, another server).

/** The body as UTF-8 text, or null once it goes past `maxBytes` (the rest is not read). */
export async function readTextLimited(request: Request, maxBytes: number): Promise<string | null> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
