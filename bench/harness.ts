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
  for (let r = 0; r < rounds; r++) {
    if (r % 2) {
      subj.push(await round(c.subject, ops));
      base.push(await round(c.baseline, ops));
    } else {
      base.push(await round(c.baseline, ops));
      subj.push(await round(c.subject, ops));
    }
    c.betweenRounds?.();
    progress('.');
  }
  const result = ratioOf(c.name, subj, base, c.target);
  progress(` ${result.ratio.toFixed(2)}x\n`);
  return result;
}

/** One client of {@link compareTogether}: its name, its call, and its target against the baseline, if any. */
export interface Contender {
  name: string;
  run: () => Promise<unknown>;
  target?: number;
}

/**
 * Like {@link compare}, for several subjects measured in the same rounds against one baseline: each
 * round runs the baseline and every subject once (the order turned by one place each round, and
 * reversed every other round, so that drift falls on each alike), and a subject's ratio in a round is
 * its time over that round's baseline. Two subjects are compared head to head by
 * {@link headToHead} from the same rounds, not from two runs with their own baselines.
 */
export async function compareTogether(
  baseline: Contender,
  subjects: readonly Contender[],
  { rounds = 31, ops = 200 }: { rounds?: number; ops?: number } = {},
): Promise<{ results: Result[]; times: ReadonlyMap<string, readonly number[]> }> {
  const all = [baseline, ...subjects];
  progress(`  ${subjects.map((s) => s.name).join(', ')}: each against ${baseline.name}, in the same rounds `);
  for (const c of all) await round(c.run, ops);
  const times = new Map<string, number[]>(all.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) {
    const turned = all.map((_, i) => all[(i + r) % all.length]!);
    for (const c of r % 2 ? turned.reverse() : turned) times.get(c.name)!.push(await round(c.run, ops));
    progress('.');
  }
  const results = subjects.map((s) =>
    ratioOf(`${s.name} vs ${baseline.name}`, times.get(s.name)!, times.get(baseline.name)!, s.target),
  );
  progress(` ${results.map((r) => r.ratio.toFixed(2)).join(', ')}\n`);
  return { results, times };
}

/** `subject` against `rival`, round by round, from the times of {@link compareTogether}. */
export function headToHead(
  times: ReadonlyMap<string, readonly number[]>,
  subject: string,
  rival: string,
  target?: number,
): Result {
  return ratioOf(`${subject} vs ${rival}, head to head`, times.get(subject)!, times.get(rival)!, target);
}

function ratioOf(name: string, subj: readonly number[], base: readonly number[], target: number | undefined): Result {
  const ratios = subj.map((s, i) => s / base[i]!);
  return {
    name,
    baseline: median(base),
    subject: median(subj),
    unit: 'us/op',
    ratio: median(ratios),
    spread: [Math.min(...ratios), Math.max(...ratios)],
    target,
  };
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
