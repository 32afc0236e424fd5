/**
 * A small comparison harness: each case runs against its baseline in alternating rounds in the
 * same process, and the result is the ratio of the medians. Absolute times on a shared machine are
 * noise; the ratio is what is read.
 */
export interface Comparison {
  name: string;
  /** What the case is measured against. */
  baseline: () => Promise<unknown>;
  subject: () => Promise<unknown>;
  /** The ratio the subject should stay under. */
  target: number;
}

export interface Result {
  name: string;
  baselineUs: number;
  subjectUs: number;
  ratio: number;
  target: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function round(fn: () => Promise<unknown>, ops: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < ops; i++) await fn();
  return ((performance.now() - start) * 1000) / ops;
}

/** Runs warm-up, then `rounds` alternating rounds of `ops` calls each, and returns the medians. */
export async function compare(c: Comparison, rounds = 15, ops = 200): Promise<Result> {
  await round(c.baseline, ops);
  await round(c.subject, ops);
  const base: number[] = [];
  const subj: number[] = [];
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first so drift in machine load falls on both sides.
    if (r % 2) {
      subj.push(await round(c.subject, ops));
      base.push(await round(c.baseline, ops));
    } else {
      base.push(await round(c.baseline, ops));
      subj.push(await round(c.subject, ops));
    }
  }
  const baselineUs = median(base);
  const subjectUs = median(subj);
  return { name: c.name, baselineUs, subjectUs, ratio: subjectUs / baselineUs, target: c.target };
}

/** Prints results as a table. */
export function report(results: Result[]): void {
  const rows = results.map((r) => ({
    case: r.name,
    'baseline (us/op)': r.baselineUs.toFixed(1),
    'subject (us/op)': r.subjectUs.toFixed(1),
    ratio: `${r.ratio.toFixed(2)}x`,
    target: `<= ${r.target}x`,
    verdict: r.ratio <= r.target ? 'within target' : 'OVER TARGET',
  }));
  console.table(rows);
}
