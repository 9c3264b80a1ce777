// The V8 heap of each engine worker thread (pool.server.ts; docs/decisions/145). The engine's
// document work (signing what Colibrí issues, judging what suppliers send) runs in these isolates,
// not in the web process's, and bench/hacienda.ts measures it in an isolate with the same limits.
//
// - Young generation 8 MB: V8 otherwise grows it to 32 MB in the first seconds of steady work,
//   whatever one call allocates; at 8 MB the engine's throughput is unchanged (decision 145's table).
// - Old generation 512 MB: a hostile file that exhausts it ends that worker only (its file is
//   refused, a new worker takes its place); and a heap limit this size makes V8 let the old space
//   grow by about 1.4× its live size between full collections, where the web process's default
//   limit lets it grow by 4×.
export const ENGINE_WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 512 } as const;
