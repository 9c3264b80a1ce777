import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodePage, pageEncoding } from "./page-compression.ts";

describe("a page's encoding", () => {
  it("is brotli when accepted at least as much as gzip, else gzip, else none", () => {
    expect(pageEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(pageEncoding("gzip, deflate")).toBe("gzip");
    expect(pageEncoding("br;q=0, gzip")).toBe("gzip");
    expect(pageEncoding("br;q=0.5, gzip;q=0.8")).toBe("gzip");
    expect(pageEncoding("BR ; Q=1, GZIP")).toBe("br");
    expect(pageEncoding("*")).toBe("br");
    expect(pageEncoding("*;q=0, gzip")).toBe("gzip");
    expect(pageEncoding("gzip;q=0, br;q=0")).toBe("identity");
    expect(pageEncoding("identity")).toBe("identity");
    expect(pageEncoding("deflate")).toBe("identity");
    expect(pageEncoding("")).toBe("identity");
    expect(pageEncoding(undefined)).toBe("identity");
  });

  it("decodes to the same bytes", () => {
    const page = Buffer.from("<!DOCTYPE html><p>Facturación electrónica ₡1 000,00</p>".repeat(100));
    expect(zlib.brotliDecompressSync(encodePage(page, "br")).equals(page)).toBe(true);
    expect(zlib.gunzipSync(encodePage(page, "gzip")).equals(page)).toBe(true);
    expect(encodePage(page, "identity")).toBe(page);
  });
});
