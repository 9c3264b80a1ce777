// A token bucket per key (a client address, a clave), in this process's memory. For public
// endpoints where a request costs little but a flood must not (docs/decisions/110): no database
// write per request, nothing to clean up. The map is bounded: past `maxKeys` the least recently
// seen keys are forgotten (a forgotten key starts again with a full bucket).

export interface RateLimiter {
  /** Takes one token for `key`; false when its bucket is empty. */
  take(key: string, now?: number): boolean;
}

export function createRateLimiter(opts: { capacity: number; refillPerSecond: number; maxKeys?: number }): RateLimiter {
  const maxKeys = opts.maxKeys ?? 10_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key, now = Date.now()) {
      const b = buckets.get(key) ?? { tokens: opts.capacity, at: now };
      buckets.delete(key); // re-inserted below: the Map's order is the order of last use
      b.tokens = Math.min(opts.capacity, b.tokens + ((now - b.at) / 1000) * opts.refillPerSecond);
      b.at = now;
      const allowed = b.tokens >= 1;
      if (allowed) b.tokens -= 1;
      buckets.set(key, b);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
      return allowed;
    },
  };
}
