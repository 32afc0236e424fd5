/**
 * `npm run redos`: the whole ReDoS sweep, of which `npm test` runs a seeded share. Every distinct
 * pattern of `src/` and `mock/` through recheck (test/redos.test.ts checks ten), then the tags
 * rules compared on every text of up to 7 characters (test/mock/tags-redos.test.ts: up to 5, and a
 * seeded share of longer ones). Prints each pattern's verdict and time; exits 1 on a finding.
 */
import { diagnose, distinct, runtimePatterns, scanSources, verdict } from './patterns.js';
import { compareUpTo, EXHAUSTIVE_LENGTH } from './tags.js';

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const findings: string[] = [];

const started = performance.now();
const patterns = distinct([...scanSources().flatMap((s) => s.patterns), ...(await runtimePatterns())]);
console.log(`ReDoS sweep: ${patterns.length} distinct patterns`);
for (const p of patterns) {
  const since = performance.now();
  const v = verdict(p, await diagnose(p));
  console.log(`  ${seconds(since).padStart(7)}  ${v === 'safe' ? 'safe      ' : 'FINDING   '} /${p.source}/${p.flags}`);
  if (v !== 'safe') findings.push(v);
}
console.log(`patterns checked in ${seconds(started)}`);

const tagsStarted = performance.now();
const { compared, disagreements } = compareUpTo(EXHAUSTIVE_LENGTH);
console.log(`tags: ${compared} texts of up to ${EXHAUSTIVE_LENGTH} characters compared in ${seconds(tagsStarted)}`);
for (const tags of disagreements.slice(0, 20))
  findings.push(`tags ${JSON.stringify(tags)}: the linear rule and the spec rule disagree`);
if (disagreements.length > 20) findings.push(`... and ${disagreements.length - 20} more texts the rules disagree on`);

if (findings.length > 0) {
  console.error(`\n${findings.join('\n')}`);
  process.exit(1);
}
console.log(`\nno finding (${seconds(started)})`);
