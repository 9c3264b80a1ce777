import { describe, expect, it } from "vitest";
import { cleanPage, cleanSearch, lastPage, MAX_PAGE, pageWindow, parsePageRequest, showPager } from "./pagination.ts";

describe("pagination", () => {
  it("defaults to page 1 of 10 and accepts only the allowed sizes", () => {
    expect(parsePageRequest(new URLSearchParams())).toEqual({ page: 1, perPage: 10, search: "" });
    expect(parsePageRequest(new URLSearchParams("perPage=30&page=3&search=%20ana%20"))).toEqual({ page: 3, perPage: 30, search: "ana" });
    expect(parsePageRequest(new URLSearchParams("perPage=7&page=-2")).perPage).toBe(10);
    expect(parsePageRequest(new URLSearchParams("page=abc")).page).toBe(1);
  });
  it("remembers the page per section when the URL has none", () => {
    expect(parsePageRequest(new URLSearchParams(), { page: 4, perPage: 50 })).toEqual({ page: 4, perPage: 50, search: "" });
    expect(parsePageRequest(new URLSearchParams("page=2"), { page: 4 }).page).toBe(2);
  });
  it("shows the pager only with more than one page", () => {
    expect(showPager(10, 10)).toBe(false);
    expect(showPager(11, 10)).toBe(true);
    expect(lastPage(0, 10)).toBe(1);
    expect(pageWindow(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
    expect(pageWindow(1, 2)).toEqual([1, 2]);
  });
  it("cleans hostile pages and searches in one place (issue 10)", () => {
    for (const raw of ["1e308", "-5", "NaN", "Infinity", "2.5", "0x10", "0", "", " ", "99999999999999999999"]) expect(cleanPage(raw), raw).toBe(1);
    expect(cleanPage("7")).toBe(7);
    expect(cleanPage("999999999")).toBe(MAX_PAGE);
    expect(cleanPage(1e308)).toBe(1);
    expect(parsePageRequest(new URLSearchParams(), { page: 1e308 }).page).toBe(1);
    expect(parsePageRequest(new URLSearchParams("page=1e308"), { page: 4 }).page).toBe(1);
    expect(cleanSearch("ana\u0000maría")).toBe("ana maría");
    expect(cleanSearch("\u0001\u001f\u007f\u009f x \ud800")).toBe("x");
    expect(cleanSearch("ñ".repeat(150))).toBe("ñ".repeat(100));
    expect(cleanSearch("😀".repeat(101))).toBe("😀".repeat(100));
    expect(parsePageRequest(new URLSearchParams("search=%00pedro%00")).search).toBe("pedro");
  });
});
