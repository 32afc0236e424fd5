/**
 * Regular-expression denial of service: every pattern in `src/` and `mock/` goes through recheck
 * (a ReDoS checker: automaton analysis, with fuzzing where that does not apply). The patterns are
 * found by reading the sources with the TypeScript parser, so a pattern added later is checked
 * without touching this test: regular expression literals, `RegExp(...)` / `new RegExp(...)` with
 * a literal source, and strings given to `match`, `matchAll` and `search` (which become patterns).
 * A `RegExp` built from a run-time value cannot be read from the source: each file that builds
 * one is listed in DYNAMIC, and its patterns are recorded while the platform is created.
 *
 * recheck runs on its pure JavaScript backend (no Java, no native binary, no network).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, type Diagnostics } from 'recheck';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
const DIRS = ['src', 'mock'];

/** Files that build a RegExp from a run-time value, with how many such sites each has (exercised below). */
const DYNAMIC: Readonly<Record<string, number>> = {
  // The pattern routes' `{name}` segments: escaped literal segments and `([^/]+)` groups.
  'mock/core/router.ts': 1,
  // The MSW handlers' origins: an escaped literal origin followed by `/`.
  'mock/msw.ts': 1,
};

interface Pattern {
  readonly source: string;
  readonly flags: string;
  readonly where: string;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|cts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The text of a string literal or template without substitutions; undefined otherwise. */
function literalText(node: ts.Node | undefined): string | undefined {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  return undefined;
}

function scan(file: string): { patterns: Pattern[]; dynamic: string[] } {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const patterns: Pattern[] = [];
  const dynamic: string[] = [];
  const where = (node: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(sf);
      const slash = literal.lastIndexOf('/');
      patterns.push({ source: literal.slice(1, slash), flags: literal.slice(slash + 1), where: where(node) });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      const [first, second] = node.arguments ?? [];
      const source = literalText(first);
      if (source === undefined) dynamic.push(where(node));
      else patterns.push({ source, flags: literalText(second) ?? '', where: where(node) });
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['match', 'matchAll', 'search'].includes(node.expression.name.text)
    ) {
      const source = literalText(node.arguments[0]);
      if (source !== undefined) patterns.push({ source, flags: '', where: where(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { patterns, dynamic };
}

const files = DIRS.flatMap(sourceFiles);
const scanned = files.map((file) => ({ file, ...scan(file) }));
const literalPatterns = scanned.flatMap((s) => s.patterns);

/** Patterns built at run time while a platform is created (both environments), recorded by a RegExp proxy. */
async function runtimePatterns(): Promise<Pattern[]> {
  const { createHandlers, createPlatform, defaultHosts } = await import('../mock/index.js');
  const recorded: Pattern[] = [];
  const Original = globalThis.RegExp;
  globalThis.RegExp = new Proxy(Original, {
    construct(target, args: [string | RegExp, string?], newTarget) {
      const made: RegExp = Reflect.construct(target, args, newTarget);
      recorded.push({ source: made.source, flags: made.flags, where: 'built at run time' });
      return made;
    },
  });
  try {
    createPlatform({ environment: 'stage' });
    createHandlers(createPlatform({ environment: 'production' }), defaultHosts);
  } finally {
    globalThis.RegExp = Original;
  }
  return recorded;
}

async function diagnose(p: Pattern): Promise<Diagnostics> {
  // The pure JavaScript backend: no Java, no native binary, the same verdict on every machine.
  process.env.RECHECK_BACKEND = 'pure';
  return check(p.source, p.flags, { timeout: null, randomSeed: 7 });
}

function verdict(p: Pattern, d: Diagnostics): string {
  if (d.status === 'safe') return 'safe';
  if (d.status === 'vulnerable') return `${p.where} /${p.source}/${p.flags} is vulnerable: ${d.complexity.summary}`;
  return `${p.where} /${p.source}/${p.flags} could not be checked: ${d.error.kind}`;
}

describe('ReDoS: every regular expression in src/ and mock/', () => {
  test('the scan finds the patterns (it reads the sources, so new ones are included)', () => {
    expect(files.length).toBeGreaterThan(30);
    expect(literalPatterns.length).toBeGreaterThan(10);
    expect(literalPatterns.some((p) => p.where.startsWith('src/schemas/products.ts'))).toBe(true);
  });

  test('a RegExp built from a run-time value is only in files listed in DYNAMIC, which this test exercises', () => {
    const found: Record<string, number> = {};
    for (const s of scanned) if (s.dynamic.length > 0) found[s.file] = s.dynamic.length;
    expect(found, 'a new RegExp built at run time: record its patterns in runtimePatterns() and list it').toEqual(
      DYNAMIC,
    );
  });

  test('no pattern is vulnerable (literal ones, and those the platform builds)', { timeout: 120_000 }, async () => {
    const runtime = await runtimePatterns();
    expect(runtime.length).toBeGreaterThan(0);
    const all = [...literalPatterns, ...runtime];
    // One check per distinct pattern, reported at every place it is written.
    const distinct = new Map<string, Pattern>();
    for (const p of all) {
      const key = `/${p.source}/${p.flags}`;
      const seen = distinct.get(key);
      distinct.set(key, seen ? { ...seen, where: `${seen.where}, ${p.where}` } : p);
    }
    const failures: string[] = [];
    for (const p of distinct.values()) {
      const v = verdict(p, await diagnose(p));
      if (v !== 'safe') failures.push(v);
    }
    expect(failures).toEqual([]);
  });

  test('the checker does find a vulnerable pattern: the tags rule this package had', async () => {
    const d = await diagnose({ source: '^([a-zA-Z0-9]+,?\\s*)+$', flags: '', where: 'old tags rule' });
    expect(d.status).toBe('vulnerable');
    if (d.status === 'vulnerable') expect(d.complexity.type).toBe('exponential');
  });
});
