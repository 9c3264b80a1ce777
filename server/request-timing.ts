// The server time of each request measured inside the process, for the benchmark (issue 16,
// docs/decisions/190-request-cost.md): with REQUEST_TIMING_FILE set, every answer appends one JSON
// line — method, URL, status, milliseconds from the request's arrival to its last byte handed to
// the socket (session, loaders, render, compression), the CPU time the process spent meanwhile (on a
// machine shared with other work, waiting for a core inflates the first, not the second), and the
// queries the process ran meanwhile.
// Unset (production), this module is not installed at all.
//
// The query numbers are the process's totals during the request: exact when the request ran
// alone (`alone: true`, as on the benchmark's idle server, one request at a time), an upper bound
// otherwise (the in-process jobs or another request may have added theirs).
import fs from "node:fs";
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
  alone: boolean;
}

export function requestTimingLog(file: string, totals: QueryStats) {
  let inFlight = 0;
  let overlapSeq = 0;
  const fd = fs.openSync(file, "a");
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
      const line: TimingLine = {
        method: req.method,
        url: req.originalUrl,
        status: res.statusCode,
        ms: Number((performance.now() - t0).toFixed(3)),
        cpuMs: (cpu.user + cpu.system) / 1000,
        queries: totals.queries - q0,
        dbMs: Number((totals.ms - db0).toFixed(3)),
        alone: seq0 === overlapSeq && inFlight === 0,
      };
      fs.writeSync(fd, JSON.stringify(line) + "\n");
    });
    next();
  };
}
