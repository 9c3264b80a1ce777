import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit.server.ts";

describe("createRateLimiter", () => {
  it("allows a burst of `capacity`, then one request per refill interval", () => {
    const limiter = createRateLimiter({ capacity: 3, refillPerSecond: 2 });
    const t = 1_000_000;
    expect([1, 2, 3, 4].map(() => limiter.take("a", t))).toEqual([true, true, true, false]);
    expect(limiter.take("a", t + 400)).toBe(false); // 0.8 token
    expect(limiter.take("a", t + 500)).toBe(true); // 1 token
    expect(limiter.take("a", t + 500)).toBe(false);
    expect(limiter.take("b", t + 500)).toBe(true); // another key has its own bucket
  });

  it("never holds more than maxKeys buckets; the least recently used is forgotten", () => {
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 0, maxKeys: 2 });
    expect(limiter.take("a", 0)).toBe(true);
    expect(limiter.take("b", 0)).toBe(true);
    expect(limiter.take("a", 0)).toBe(false); // a used last
    expect(limiter.take("c", 0)).toBe(true); // b forgotten
    expect(limiter.take("a", 0)).toBe(false);
    expect(limiter.take("b", 0)).toBe(true); // b starts again full
  });
});
