// The foundation benchmark's JavaScript budget (decision 155): a screen a query parameter opens (a
// dialog, a tab) is held to the budget exactly like a page of the route table — one over it is
// OVER BUDGET and the run exits with 1 — so a dialog cannot grow past it unnoticed.
import { afterEach, describe, expect, it, vi } from "vitest";
import { JS_BUDGET, jsBudgetVerdict, reportShipped } from "../../bench/foundation.ts";

describe("the JavaScript budget of the foundation benchmark", () => {
  afterEach(() => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
  });

  it("a screen opened by a query parameter above the budget is over budget and is the heaviest", () => {
    const verdict = jsBudgetVerdict({ "/clients": 115_000, "/client-detail/1": 119_000 }, { "/clients?new=1": JS_BUDGET + 1, "/items?new=1": 119_500 });
    expect(verdict.heaviest).toEqual({ path: "/clients?new=1", jsGzipBytes: JS_BUDGET + 1 });
    expect(verdict.overBudget).toEqual([`/clients?new=1 (a screen opened by a query parameter): ${JS_BUDGET + 1} B gzip JavaScript > ${JS_BUDGET} B`]);
  });

  it("pages and screens at the budget pass; a page over it is over budget too", () => {
    expect(jsBudgetVerdict({ "/new-invoice": JS_BUDGET }, { "/users?new=1": JS_BUDGET }).overBudget).toEqual([]);
    expect(jsBudgetVerdict({ "/new-invoice": JS_BUDGET + 5 }, {}).overBudget).toEqual([`/new-invoice: ${JS_BUDGET + 5} B gzip JavaScript > ${JS_BUDGET} B`]);
  });

  it("prints OVER BUDGET for a screen and makes the run fail", () => {
    const printed: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void printed.push(line));
    reportShipped(jsBudgetVerdict({ "/clients": 115_000 }, { "/providers?new=1": 122_652 }));
    expect(printed).toContain(`OVER BUDGET /providers?new=1 (a screen opened by a query parameter): 122652 B gzip JavaScript > ${JS_BUDGET} B`);
    expect(process.exitCode).toBe(1);
  });

  it("within the budget the run does not fail", () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    reportShipped(jsBudgetVerdict({ "/clients": 115_000 }, { "/clients?new=1": 117_600 }));
    expect(process.exitCode).toBeUndefined();
  });
});
