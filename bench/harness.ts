/**
 * The comparison harness. Absolute times on a shared machine are noise; a ratio measured in the
 * same process, round after round, is what can be read. Each case alternates baseline and subject
 * in rounds (which goes first alternates too, so drift in machine load falls on both), takes the
 * ratio of each round, and reports the median of those ratios with its spread (lowest and highest).
 */
export interface Comparison {
  name: string;
  /** What the case is measured against. */
  baseline: () => Promise<unknown>;
  subject: () => Promise<unknown>;
  /** The ratio the subject must stay under; none for a reference row (a peer, measured for context). */
  target?: number;
  /** Calls per round. Default 200. */
  ops?: number;
  /** Run between rounds, untimed (e.g. a reset of state that the subject grows). */
  betweenRounds?: () => void;
}

/** One row of the report. */
export interface Result {
  name: string;
  /** Median time of one baseline call, in microseconds (or of the baseline measure, for memory and size rows). */
  baseline: number;
  subject: number;
  /** The unit of `baseline` and `subject`. */
  unit: string;
  /** Median of the per-round ratios. */
  ratio: number;
  /** The lowest and highest per-round ratio. */
  spread: [number, number];
  target: number | undefined;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function round(fn: () => Promise<unknown>, ops: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < ops; i++) await fn();
  return ((performance.now() - start) * 1000) / ops;
}

/** Progress on stderr, so that the report on stdout stays a table. */
export function progress(text: string): void {
  process.stderr.write(text);
}

/** Runs a warm-up, then `rounds` alternating rounds; prints a dot per round. */
export async function compare(c: Comparison, rounds = 31): Promise<Result> {
  const ops = c.ops ?? 200;
  progress(`  ${c.name} `);
  await round(c.baseline, ops);
  await round(c.subject, ops);
  c.betweenRounds?.();
  const base: number[] = [];
  const subj: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let b: number;
    let s: number;
    if (r % 2) {
      s = await round(c.subject, ops);
      b = await round(c.baseline, ops);
    } else {
      b = await round(c.baseline, ops);
      s = await round(c.subject, ops);
    }
    base.push(b);
    subj.push(s);
    ratios.push(s / b);
    c.betweenRounds?.();
    progress('.');
  }
  const result: Result = {
    name: c.name,
    baseline: median(base),
    subject: median(subj),
    unit: 'us/op',
    ratio: median(ratios),
    spread: [Math.min(...ratios), Math.max(...ratios)],
    target: c.target,
  };
  progress(` ${result.ratio.toFixed(2)}x\n`);
  return result;
}

/** Whether a result is over its target. */
export function over(r: Result): boolean {
  return r.target !== undefined && r.ratio > r.target;
}

/** Prints results as a table. */
export function report(title: string, results: readonly Result[]): void {
  if (results.length === 0) return;
  console.log(`\n${title}`);
  console.table(
    results.map((r) => ({
      case: r.name,
      baseline: `${round1(r.baseline)} ${r.unit}`,
      subject: `${round1(r.subject)} ${r.unit}`,
      ratio: `${r.ratio.toFixed(2)}x`,
      spread: r.spread[0] === r.spread[1] ? '' : `${r.spread[0].toFixed(2)}-${r.spread[1].toFixed(2)}`,
      target: r.target === undefined ? 'reference' : `<= ${r.target}x`,
      verdict: r.target === undefined ? '' : over(r) ? 'OVER TARGET' : 'within target',
    })),
  );
}

function round1(n: number): string {
  return n >= 100 ? n.toFixed(0) : n.toFixed(1);
}
