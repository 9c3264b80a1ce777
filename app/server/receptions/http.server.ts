// A file download of the reception screens: private, not cached, never sniffed.
export function attachment(body: Uint8Array, type: string, filename: string): Response {
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: {
      "Content-Type": type,
      "Content-Disposition": `attachment; filename="${filename.replace(/["\\\r\n]/g, "")}"`,
      "Content-Length": String(body.byteLength),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
