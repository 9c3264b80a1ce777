// The server time of each request measured inside the process, for the benchmark (issue 16,
// docs/decisions/190-request-cost.md): with REQUEST_TIMING_FILE set, every answer appends one JSON
// line — method, URL, status, milliseconds from the request's arrival to its last byte handed to
// the socket (session, loaders, render, compression), the CPU time the process spent meanwhile (on a
// machine shared with other work, waiting for a core inflates the first, not the second), and the
// queries the process ran meanwhile, and the garbage collector's pauses meanwhile (`gcMs`, from
// the `gc` performance entries: part of `cpuMs`, and where a collection lands depends on what ran
// before, so the benchmark shows it apart).
// Unset (production), this module is not installed at all.
//
// The query numbers are the process's totals during the request: exact when the request ran
// alone (`alone: true`, as on the benchmark's idle server, one request at a time), an upper bound
// otherwise (the in-process jobs or another request may have added theirs).
import fs from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";
import type { NextFunction, Request, Response } from "express";
import type { QueryStats } from "../db/query-stats.ts";

export interface TimingLine {
  method: string;
  url: string;
  status: number;
  ms: number;
  /** CPU time of the whole process meanwhile (all its threads: JavaScript, PGlite, zlib, GC). */
  cpuMs: number;
  queries: number;
  dbMs: number;
  /** Garbage-collection pauses that started during the request (main thread), in ms. */
  gcMs: number;
  alone: boolean;
}

export function requestTimingLog(file: string, totals: QueryStats) {
  let inFlight = 0;
  let overlapSeq = 0;
  const fd = fs.openSync(file, "a");
  // The collector's pauses as [start, duration] in performance.now() time. Entries are delivered a
  // moment after the collection, so a line is written on the next timer turn, when they are in.
  const pauses: [number, number][] = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push([e.startTime, e.duration]);
    if (pauses.length > 1000) pauses.splice(0, pauses.length - 1000);
  }).observe({ entryTypes: ["gc"] });
  return (req: Request, res: Response, next: NextFunction) => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const q0 = totals.queries;
    const db0 = totals.ms;
    const seq0 = overlapSeq;
    if (inFlight++ > 0) overlapSeq++;
    res.once("finish", () => {
      inFlight--;
      const cpu = process.cpuUsage(cpu0);
      const t1 = performance.now();
      const line: Omit<TimingLine, "gcMs"> = {
        method: req.method,
        url: req.originalUrl,
        status: res.statusCode,
        ms: Number((t1 - t0).toFixed(3)),
        cpuMs: (cpu.user + cpu.system) / 1000,
        queries: totals.queries - q0,
        dbMs: Number((totals.ms - db0).toFixed(3)),
        alone: seq0 === overlapSeq && inFlight === 0,
      };
      setTimeout(() => {
        const gcMs = pauses.filter(([start]) => start >= t0 && start < t1).reduce((sum, [, d]) => sum + d, 0);
        fs.writeSync(fd, JSON.stringify({ ...line, gcMs: Number(gcMs.toFixed(3)) }) + "\n");
      }, 0);
    });
    next();
  };
}
