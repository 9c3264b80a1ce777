// PDF render time (spec issue 5 §11: budget ≤ 100 ms warm). Cold = the first render in this process
// (module import, font parsing, layout engine start-up); warm = median and p95 of later renders of
// the same document shapes with a different public URL each time (so the QR is re-encoded).
// Run alone: `npx tsx bench/pdf.ts`.
import { performance } from "node:perf_hooks";

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), min: +s[0].toFixed(1) };
}

export async function benchPdf(opts: { runs?: number } = {}): Promise<Record<string, unknown>> {
  const runs = opts.runs ?? 30;
  const t0 = performance.now();
  const { renderDocumentPdf } = await import("../app/pdf/invoice-pdf.server.tsx");
  const { feColones, manyLines } = await import("../app/domain/document-view.fixtures.ts");
  const importMs = performance.now() - t0;

  const three = feColones;
  const fifty = manyLines(50);
  const timeOne = async (view: typeof three, i: number) => {
    const t = performance.now();
    const pdf = await renderDocumentPdf({ ...view, publicUrl: `${view.publicUrl}-${i}` });
    return { ms: performance.now() - t, bytes: pdf.length };
  };

  const cold3 = await timeOne(three, -1);
  const cold50 = await timeOne(fifty, -1);
  for (let i = 0; i < 5; i++) {
    await timeOne(three, i);
    await timeOne(fifty, i);
  }
  const warm3: number[] = [];
  const warm50: number[] = [];
  let bytes3 = 0;
  let bytes50 = 0;
  for (let i = 0; i < runs; i++) {
    const a = await timeOne(three, 100 + i);
    warm3.push(a.ms);
    bytes3 = a.bytes;
    const b = await timeOne(fifty, 100 + i);
    warm50.push(b.ms);
    bytes50 = b.bytes;
  }
  return {
    importMs: +importMs.toFixed(0),
    cold3LinesMs: +cold3.ms.toFixed(0),
    cold50LinesMs: +cold50.ms.toFixed(0),
    warm3Lines: stats(warm3),
    warm50Lines: stats(warm50),
    bytes3Lines: bytes3,
    bytes50Lines: bytes50,
    runs,
    budget: "warm median ≤ 100 ms (3 lines)",
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchPdf(), null, 2));
}
