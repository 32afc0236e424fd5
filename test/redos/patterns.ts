/**
 * Every regular expression of `src/` and `mock/`, for the ReDoS sweep (`test/redos.test.ts` checks
 * a seeded share, `npm run redos` all of them). The patterns are found by reading the sources
 * with the TypeScript parser, so a pattern added later is swept without touching the sweep:
 * regular expression literals, `RegExp(...)` / `new RegExp(...)` with a literal source, and
 * strings given to `match`, `matchAll` and `search` (which become patterns). A `RegExp` built
 * from a run-time value cannot be read from the source: each file that builds one is listed in
 * {@link DYNAMIC}, and its patterns are recorded while the platform is created.
 *
 * recheck runs on its pure JavaScript backend (no Java, no native binary, no network).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, type Diagnostics } from 'recheck';
import ts from 'typescript';

const ROOT = new URL('../..', import.meta.url).pathname;
const DIRS = ['src', 'mock'];

/** Files that build a RegExp from a run-time value, with how many such sites each has (recorded by {@link runtimePatterns}). */
export const DYNAMIC: Readonly<Record<string, number>> = {
  // The pattern routes' `{name}` segments: escaped literal segments and `([^/]+)` groups.
  'mock/core/router.ts': 1,
  // The MSW handlers' origins: an escaped literal origin followed by `/`.
  'mock/msw.ts': 1,
};

/** A pattern and where it is written (every place, for one written in several). */
export interface Pattern {
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

/** What one file holds: its patterns, and the places that build a RegExp from a run-time value. */
export interface Scanned {
  readonly file: string;
  readonly patterns: Pattern[];
  readonly dynamic: string[];
}

function scan(file: string): Scanned {
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
  return { file, patterns, dynamic };
}

/** Every source file of `src/` and `mock/`, read and scanned. */
export function scanSources(): Scanned[] {
  return DIRS.flatMap(sourceFiles).map(scan);
}

/** Patterns built at run time while a platform is created (both environments), recorded by a RegExp proxy. */
export async function runtimePatterns(): Promise<Pattern[]> {
  const { createHandlers, createPlatform, defaultHosts } = await import('../../mock/index.js');
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

/**
 * One entry per distinct pattern, naming every place it is written, in the order of their text:
 * the same list on every machine, whatever order the file system lists the sources in.
 */
export function distinct(patterns: readonly Pattern[]): Pattern[] {
  const byKey = new Map<string, Pattern>();
  for (const p of patterns) {
    const key = `/${p.source}/${p.flags}`;
    const seen = byKey.get(key);
    byKey.set(key, seen ? { ...seen, where: `${seen.where}, ${p.where}` } : p);
  }
  return [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
}

/** recheck's verdict on a pattern: on its pure JavaScript backend, the same on every machine. */
export async function diagnose(p: Pattern): Promise<Diagnostics> {
  process.env.RECHECK_BACKEND = 'pure';
  return check(p.source, p.flags, { timeout: null, randomSeed: 7 });
}

/** `safe`, or what is wrong with the pattern and where it is written. */
export function verdict(p: Pattern, d: Diagnostics): string {
  if (d.status === 'safe') return 'safe';
  if (d.status === 'vulnerable') return `${p.where} /${p.source}/${p.flags} is vulnerable: ${d.complexity.summary}`;
  return `${p.where} /${p.source}/${p.flags} could not be checked: ${d.error.kind}`;
}
