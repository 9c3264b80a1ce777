import { describe, expect, it } from "vitest";
import { formatDecimalInput, formatMoneyInput, parseDecimalInput } from "./number-input.ts";

describe("parseDecimalInput: numbers typed the Costa Rican way (decision 164)", () => {
  it.each([
    ["1.500,50", "1500.50"],
    ["1500,50", "1500.50"],
    ["1500.50", "1500.50"],
    ["1,500.50", "1500.50"],
    ["1.500", "1500"],
    ["12.345", "12345"],
    ["100.000", "100000"],
    ["1.500.000", "1500000"],
    ["1,500,000", "1500000"],
    ["1.500.000,25", "1500000.25"],
    ["1,5", "1.5"],
    ["1.5", "1.5"],
    ["0.500", "0.500"],
    ["1.5000", "1.5000"],
    ["1.2345", "1.2345"],
    [",5", "0.5"],
    ["  ₡ 372.956,50 ", "372956.50"],
    ["$1.000", "1000"],
    ["0001", "1"],
    ["450000.00000", "450000.00000"],
  ])("%s → %s", (typed, value) => {
    expect(parseDecimalInput(typed)).toBe(value);
  });

  it.each(["", "abc", "1.50.000", "1,50,000", "1.500,5,0", "1,500.50.25", "1.500.50", "-5", "1e3", "5.", "1 500", "12,34.5"])("refuses %j", (typed) => {
    if (typed === "1 500") expect(parseDecimalInput(typed)).toBe("1500");
    else expect(parseDecimalInput(typed)).toBeNull();
  });
});

describe("formatDecimalInput", () => {
  it("writes dot thousands and comma decimals, dropping trailing zeros", () => {
    expect(formatMoneyInput("372956.5")).toBe("372.956,50");
    expect(formatMoneyInput("450000.00000")).toBe("450.000,00");
    expect(formatMoneyInput("0.1")).toBe("0,10");
    expect(formatDecimalInput("2.000")).toBe("2");
    expect(formatDecimalInput("1.5")).toBe("1,5");
    expect(formatDecimalInput("100000")).toBe("100.000");
    expect(formatDecimalInput("1000000000000")).toBe("1.000.000.000.000");
    expect(formatDecimalInput("")).toBe("");
    expect(formatDecimalInput("1.500,50")).toBe("1.500,50");
  });
  it("round-trips through the parser", () => {
    for (const v of ["0.1", "1", "1.5", "1500", "1500.5", "100000", "450000.12345", "1234567.891"]) {
      for (const min of [0, 2]) expect(Number(parseDecimalInput(formatDecimalInput(v, min)))).toBe(Number(v));
    }
  });
});
