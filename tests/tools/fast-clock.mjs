// A preload for checking a test across Costa Rica's midnight (06:00 UTC) by hand; no test uses it
// (docs/decisions/209-tests-and-costa-rica-day.md). It starts the process clock at FAKE_START and runs
// it FAKE_SPEED times faster than the real one (default 1: the clock only moved), e.g.
//   FAKE_START=2026-11-27T05:48:32Z FAKE_SPEED=100 NODE_OPTIONS="--import ./tests/tools/fast-clock.mjs" \
//     npx vitest run tests/integration/receivables.test.ts
// Only `Date` is moved: timers and the database's own clock are not.
const RealDate = Date;
const start = RealDate.parse(process.env.FAKE_START ?? "");
if (Number.isNaN(start)) throw new Error("fast-clock: set FAKE_START to an ISO date, e.g. 2026-11-27T05:59:00Z");
const speed = Number(process.env.FAKE_SPEED || 1);
const t0 = RealDate.now();
const now = () => Math.round(start + (RealDate.now() - t0) * speed);

class MovedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(now());
    else super(...args);
  }
  static now() {
    return now();
  }
}
globalThis.Date = MovedDate;
