/**
 * Every TypeScript snippet of the README and the guides in `docs/` runs as written against the
 * embedded platform, and prints what the docs say it prints. The docs site's "Run" control makes
 * the same programs by the same rules (`docs/site/examples.ts`): a snippet that starts with an
 * import begins a program, one without continues the program before it; a `text` block after a
 * snippet states its output. Imports of the package are pointed at the sources; `platform.ts` is
 * loaded first. Each program is type-checked (no undefined names, strict mode) and then run. A
 * snippet that is a copy of a file in `examples/` is covered by that file's own test and skipped
 * here.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  blocksOfMarkdown,
  type ExampleBlock,
  nodeOnlyReason,
  normalizeOutput,
  outputMatches,
  programsOf,
} from '../../docs/site/examples.js';
import { createPlatform, demoSite } from '../../mock/index.js';
import { startServer } from '../../mock/node/index.js';
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

/** The pages with snippets: the README and the guides. */
const PAGES = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Each program: its name, its source, and what it prints when its snippets state it. */
function programs(): [string, string, string | undefined][] {
  const examples = readdirSync(new URL('examples/', ROOT))
    .filter((f) => f.endsWith('.ts'))
    .map((f) =>
      read(`examples/${f}`)
        .replaceAll("'../mock/index.js'", "'subscription-platform-sdk/mock'")
        .replaceAll("'../src/index.js'", "'subscription-platform-sdk'"),
    );
  const covered = (block: ExampleBlock) => examples.some((e) => e.trim() === block.code.trim());
  const out: [string, ExampleBlock[]][] = [];
  for (const page of PAGES) {
    const name = page.replace(/^docs\//, '').replace(/\.md$/, '');
    const programsOfPage = programsOf(blocksOfMarkdown(read(page)).filter((b) => !covered(b)));
    programsOfPage.forEach((program, i) => {
      out.push([programsOfPage.length === 1 ? name : `${name}-${i + 1}`, [...program]]);
    });
  }
  return out.map(([name, blocks]) => {
    let text = blocks.map((b) => b.code).join('\n');
    for (const [from, to] of IMPORTS) text = text.replaceAll(from, to);
    const stated = blocks.some((b) => b.expected !== undefined);
    // A module, even when it exports nothing.
    const expected = blocks.flatMap((b) => (b.expected === undefined ? [] : [b.expected.trimEnd()])).join('\n');
    return [name, `${text}\nexport {};\n`, stated ? expected : undefined];
  });
}

const all = programs();

beforeAll(() => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  for (const [name, source] of all) writeFileSync(new URL(`${name}.ts`, OUT), source);
});

test('every program a browser can run ends with a snippet that states its output (the site runs it)', () => {
  const silent = PAGES.flatMap((page) =>
    programsOf(blocksOfMarkdown(read(page)))
      .filter((program) => nodeOnlyReason(program.map((b) => b.code).join('\n')) === undefined)
      .filter((program) => program.at(-1)?.expected === undefined)
      .map((program) => `${page}: ${program.at(-1)?.code.split('\n')[0]}`),
  );
  expect(silent).toEqual([]);
});

test('the docs have snippets to check', () => {
  expect(all.map(([name]) => name)).toEqual(
    expect.arrayContaining(['README', 'sign-on', 'site-developers', 'test-authors-1']),
  );
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
      const source = all.find(([n]) => n === name)?.[1] ?? '';
      // A snippet that sets up MSW itself gets the platform through fetch (see platform.ts).
      const ownMsw = source.includes("from 'msw/node'") ? { SNIPPET_SETS_UP_MSW: '1' } : {};
      const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', platform, program], {
        cwd: ROOT,
        env: { ...process.env, ...ownMsw },
        timeout: PROGRAM_MS - 5_000,
      });
      expect(stderr).toBe('');
      expect(stdout.length).toBeGreaterThan(0);
      // What the docs say the program prints (`…` for what differs from run to run).
      const expected = all.find(([n]) => n === name)?.[2];
      if (expected !== undefined && !outputMatches(stdout, expected)) expect(stdout).toBe(expected);
    },
    PROGRAM_MS,
  );
});

// The site developers' guide tells a Node reader to run its examples against `platform-mock
// --environment production`, every host at its URL, with the site's client: done literally here.
test("the site developers' examples print the same against the standalone platform, as the guide tells Node readers", {
  timeout: 60_000,
}, async () => {
  const [, source, expected] = all.find(([n]) => n === 'site-developers') ?? [];
  expect(read('docs/site-developers.md')).toContain('`npx platform-mock --port 4010 --environment production`');
  const server = await startServer({ port: 0, platform: createPlatform({ environment: 'production' }) });
  try {
    const local = source
      ?.replaceAll('https://api.example-platform.com', server.url)
      .replaceAll('https://auth.example-platform.com', server.url);
    writeFileSync(new URL('site-developers-local.ts', OUT), local ?? '');
    const program = bundled('.tmp/snippets/site-developers-local.ts');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [program], {
      cwd: ROOT,
      env: { ...process.env, CLIENT_ID: demoSite.clientId, CLIENT_SECRET: demoSite.clientSecret },
      timeout: 55_000,
    });
    expect(stderr).toBe('');
    expect(normalizeOutput(stdout)).toBe(
      normalizeOutput(expected?.replaceAll('https://api.example-platform.com', server.url) ?? ''),
    );
  } finally {
    await server.close();
  }
});
