/**
 * A parity report for people and for CI: a summary on the terminal (what differs, the two values
 * side by side, the assumptions row), and JUnit XML (a test case per step) for a CI server.
 */
import type { ParityReport, StepResult } from './run.js';

/** A cell cut to `width` characters. */
function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** Rows as a table: columns padded to their widest cell, each cut to its limit. */
function table(header: readonly string[], rows: readonly (readonly string[])[], limits: readonly number[]): string[] {
  const cells = [header, ...rows].map((row) => row.map((cell, i) => cut(cell, limits[i] ?? 40)));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]?.length ?? 0)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(cells[0] ?? []), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)];
}

/** How many steps of each outcome. */
function counts(results: readonly StepResult[]): Record<StepResult['outcome'], number> {
  const n = { same: 0, differs: 0, skipped: 0 };
  for (const r of results) n[r.outcome] += 1;
  return n;
}

/** The skipped steps, one line per scenario and reason. */
function skippedLines(results: readonly StepResult[]): string[] {
  const groups = new Map<string, number>();
  for (const r of results)
    if (r.outcome === 'skipped') {
      const key = `${r.scenario}: ${r.reason ?? ''}`;
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
  return [...groups].map(([key, n]) => `  ${key} (${n} step${n === 1 ? '' : 's'})`);
}

/** The summary printed at the end of a run. */
export function summaryText(report: ParityReport): string {
  if (report.planned.length > 0)
    return `${[`parity --dry-run: the requests a run would send to ${report.target}, none sent:`, ...report.planned.map((p) => `  ${p}`)].join('\n')}\n`;
  const n = counts(report.results);
  const scenarios = new Set(report.results.map((r) => r.scenario)).size;
  const lines = [
    `parity: ${report.target} against the reference platform: ${scenarios} scenarios, ${report.results.length} steps: ${n.same} the same, ${n.differs} differ, ${n.skipped} skipped (${(report.durationMs / 1000).toFixed(1)} s)`,
  ];
  const accepted = report.differences.filter((d) => d.kind === 'accepted');
  if (accepted.length > 0) {
    lines.push('', 'FIRST: the target accepted requests the reference refuses before any change. Check the stage:');
    for (const d of accepted) lines.push(`  ${d.scenario} / ${d.step}: ${d.request}`, `    ${d.reference}`);
  }
  const rest = report.differences.filter((d) => d.kind !== 'accepted');
  if (rest.length > 0)
    lines.push(
      '',
      'Differences (the target, then the reference; the row of docs/assumptions.md each step tests):',
      ...table(
        ['scenario', 'step', 'differs', 'at', 'target', 'reference', 'assumptions row'],
        rest.map((d) => [d.scenario, d.step, d.kind, d.at, d.target, d.reference, d.row]),
        [20, 48, 8, 32, 28, 28, 80],
      ).map((l) => `  ${l}`),
    );
  if (report.extras.length > 0) {
    lines.push('', 'The platform answers more than the document says (not a failure):');
    for (const e of report.extras) lines.push(`  ${e.scenario} / ${e.step}: ${e.at} (${e.type})`);
  }
  if (report.writes.length > 0) {
    lines.push('', 'Writes sent to the test account, and their undoing:');
    for (const w of report.writes)
      lines.push(`  ${w.scenario} / ${w.step}: ${w.request}`, `    ${w.undone ? 'undone' : 'NOT undone'}: ${w.undo}`);
  }
  const skipped = skippedLines(report.results);
  if (skipped.length > 0) lines.push('', 'Skipped:', ...skipped);
  lines.push(
    '',
    report.differences.length === 0
      ? 'No difference.'
      : `${report.differences.length} difference${report.differences.length === 1 ? '' : 's'}.`,
  );
  return `${lines.join('\n')}\n`;
}

/** Text as XML character data or an attribute's value. */
function xml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** The report as JUnit XML: a test suite per scenario, a test case per step; a difference fails it, a skip skips it. */
export function junitXml(report: ParityReport): string {
  const scenarios = [...new Set(report.results.map((r) => r.scenario))];
  const n = counts(report.results);
  const suites = scenarios.map((scenario) => {
    const steps = report.results.filter((r) => r.scenario === scenario);
    const c = counts(steps);
    const cases = steps.map((r) => {
      const open = `    <testcase classname="parity.${xml(scenario)}" name="${xml(r.step)}">`;
      if (r.outcome === 'skipped') return `${open}<skipped message="${xml(r.reason ?? '')}"/></testcase>`;
      if (r.outcome === 'same') return `${open}</testcase>`;
      const first = r.differences[0];
      const message = first ? `${first.kind} at ${first.at}: target ${first.target}, reference ${first.reference}` : '';
      const body = [
        `request: ${r.request}`,
        `assumptions row: ${r.row}`,
        ...r.differences.map((d) => `${d.kind} at ${d.at}: target ${d.target}, reference ${d.reference}`),
      ].join('\n');
      return `${open}\n      <failure message="${xml(message)}" type="${xml(first?.kind ?? 'difference')}">${xml(body)}</failure>\n    </testcase>`;
    });
    return [
      `  <testsuite name="${xml(scenario)}" tests="${steps.length}" failures="${c.differs}" skipped="${c.skipped}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="platform-mock parity" tests="${report.results.length}" failures="${n.differs}" skipped="${n.skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
