/**
 * Every TypeScript snippet of the README and the guides in `docs/` runs as written against the
 * embedded platform. Each README snippet is a program of its own; a guide's snippets, in order, make
 * one program (later ones use what earlier ones declared). Imports of the package are pointed at
 * the sources; `platform.ts` is loaded first. Each program is type-checked (no undefined names,
 * strict mode) and then run. A snippet that is a copy of a file in `examples/` is covered by that
 * file's own test and skipped here.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { beforeAll, describe, expect, test } from 'vitest';
import { bundled } from '../bundle.js';

const ROOT = new URL('../../', import.meta.url);
const OUT = new URL('.tmp/snippets/', ROOT);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

const IMPORTS: readonly [string, string][] = [
  ["'subscription-platform-sdk/mock/node'", "'../../mock/node/index.js'"],
  ["'subscription-platform-sdk/mock'", "'../../mock/index.js'"],
  ["'subscription-platform-sdk/types'", "'../../src/types.js'"],
  ["'subscription-platform-sdk/sign-on'", "'../../src/sign-on/index.js'"],
  ["'subscription-platform-sdk/schemas'", "'../../src/schemas/index.js'"],
  ["'subscription-platform-sdk'", "'../../src/index.js'"],
];

function snippetsOf(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
}

/** Each program: its name and its source. */
function programs(): [string, string][] {
  const examples = readdirSync(new URL('examples/', ROOT))
    .filter((f) => f.endsWith('.ts'))
    .map((f) =>
      read(`examples/${f}`)
        .replaceAll("'../mock/index.js'", "'subscription-platform-sdk/mock'")
        .replaceAll("'../src/index.js'", "'subscription-platform-sdk'"),
    );
  const covered = (snippet: string) => examples.some((e) => e.trim() === snippet.trim());
  const out: [string, string][] = [];
  snippetsOf(read('README.md')).forEach((s, i) => {
    if (!covered(s)) out.push([`README-${i + 1}`, s]);
  });
  for (const file of readdirSync(new URL('docs/', ROOT)).filter((f) => f.endsWith('.md'))) {
    const snippets = snippetsOf(read(`docs/${file}`)).filter((s) => !covered(s));
    if (snippets.length) out.push([file.replace(/\.md$/, ''), snippets.join('\n')]);
  }
  return out.map(([name, source]) => {
    let text = source;
    for (const [from, to] of IMPORTS) text = text.replaceAll(from, to);
    // A module, even when it exports nothing.
    return [name, `${text}\nexport {};\n`];
  });
}

const all = programs();

beforeAll(() => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  for (const [name, source] of all) writeFileSync(new URL(`${name}.ts`, OUT), source);
});

test('the docs have snippets to check', () => {
  expect(all.map(([name]) => name)).toEqual(expect.arrayContaining(['README-1', 'sign-on']));
});

// One program for all the snippets: a few seconds on an idle machine, most of it reading the sources
// and the packages' types. The bound holds at twenty times that: it is CPU work, slowed by every
// process beside it.
test('every program type-checks in strict mode: no undefined names, no wrong calls', { timeout: 120_000 }, () => {
  const config = ts.readConfigFile(new URL('tsconfig.json', ROOT).pathname, ts.sys.readFile).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, new URL('.', ROOT).pathname);
  const files = all.map(([name]) => new URL(`${name}.ts`, OUT).pathname);
  const program = ts.createProgram(files, { ...options, noEmit: true });
  // The snippets' own diagnostics only: the checker looks into the sources as far as the snippets
  // use them (`npm run typecheck` checks the sources), not the whole program file by file.
  const sources = files.flatMap((file) => program.getSourceFile(file) ?? []);
  expect(sources).toHaveLength(files.length);
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...sources.flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]),
  ].map((d) => {
    const where = d.file
      ? `${d.file.fileName.split('/').pop()}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: `
      : '';
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  expect(diagnostics).toEqual([]);
});

describe('every program runs against the embedded platform', () => {
  /**
   * How long a program may take: about 1 s on an idle machine, and the bound holds at ten times
   * that and more. The platform and each program are bundled from the current sources and started
   * with node: tsx's loader hooks took most of each start.
   */
  const PROGRAM_MS = 60_000;
  let platform = '';
  beforeAll(() => {
    platform = pathToFileURL(bundled('test/snippets/platform.ts')).href;
  });

  test.each(all.map(([name]) => name))(
    '%s',
    async (name) => {
      const program = bundled(`.tmp/snippets/${name}.ts`);
      const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', platform, program], {
        cwd: ROOT,
        timeout: PROGRAM_MS - 5_000,
      });
      expect(stderr).toBe('');
      expect(stdout.length).toBeGreaterThan(0);
    },
    PROGRAM_MS,
  );
});
