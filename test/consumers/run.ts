/**
 * `npm run test:consumers`: the package as its users install it. Packs it once (`npm pack`, which
 * builds it through `prepack`; `--no-build` packs the `dist/` that is there, as CI does after
 * `npm ci` built it), checks the tarball (every file package.json names is in it, publint, attw,
 * its size), installs it in a project outside this repository with msw and Node's types, and then:
 *
 *   1. type-checks the fixture projects in `fixtures/` (ES modules and CommonJS; `moduleResolution`
 *      node16, nodenext and bundler; with the DOM's types and without; `strict`, `skipLibCheck:
 *      false`) on the oldest TypeScript the package supports and the newest;
 *   2. compiles them and runs them: each entry point imported and called, in both formats, with
 *      msw and without it (a resolve hook hides it); the CommonJS ones again as jest's CommonJS
 *      runtime runs them (no `import()`, no `require` of an ES module: `commonjs-runtime.ts`), with
 *      what the SDK loads on first use (a retry, SSO, endpoint 6, `startServer`);
 *   3. bundles the browser fixture for a browser (the `browser` condition, no top-level await);
 *   4. runs the `platform-mock` bin.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { PACKAGE_BUDGET_MB } from '../../bench/size.js';
import { HIDE_MSW_CJS, HIDE_MSW_ESM_URL } from '../hide-msw.js';
import { COMMONJS_RUNTIME_CJS } from './commonjs-runtime.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('fixtures/', import.meta.url));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

interface PackageJson {
  name: string;
  version: string;
  main?: string;
  module?: string;
  types?: string;
  bin?: Record<string, string>;
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
}

/** The TypeScript versions the fixtures are checked with (npm aliases in devDependencies). */
const TYPESCRIPT = { oldest: 'typescript-oldest', newest: 'typescript-newest' } as const;
type Compiler = keyof typeof TYPESCRIPT;

/** Each fixture configuration and the compilers it is checked with. */
const CHECKS: ReadonlyArray<[config: string, compilers: readonly Compiler[]]> = [
  ['esm/tsconfig.node16.json', ['oldest', 'newest']],
  ['esm/tsconfig.nodenext.json', ['oldest', 'newest']],
  ['esm/tsconfig.bundler.json', ['oldest', 'newest']],
  ['esm/tsconfig.browser.json', ['oldest', 'newest']],
  ['cjs/tsconfig.node16.json', ['oldest', 'newest']],
  ['cjs/tsconfig.nodenext.json', ['oldest', 'newest']],
  // msw's CommonJS types import an ES module, which TypeScript reads from CommonJS since 5.8 (nodenext).
  ['cjs/tsconfig.msw.json', ['newest']],
];

let failures = 0;
let passes = 0;

/** Runs a command; answers its standard output, or throws with all it printed. */
function run(file: string, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${[file, ...args].join(' ')}\n${`${stdout}${stderr}`.trim()}`));
      else resolve(stdout.trim());
    });
  });
}

/** Runs a named step: prints its verdict, and counts it. */
async function step(name: string, body: () => Promise<string | undefined>): Promise<void> {
  const start = performance.now();
  try {
    const note = await body();
    passes++;
    console.log(`ok   ${name} (${((performance.now() - start) / 1000).toFixed(1)} s)${note ? `: ${note}` : ''}`);
  } catch (error) {
    failures++;
    console.log(`FAIL ${name}\n${error instanceof Error ? error.message : String(error)}\n`);
  }
}

/** Runs `tasks` at most `limit` at a time. */
async function pool(tasks: ReadonlyArray<() => Promise<void>>, limit: number): Promise<void> {
  const queue = [...tasks];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let task = queue.shift(); task; task = queue.shift()) await task();
    }),
  );
}

/** Every file path that package.json points at: `main`, `module`, `types`, `bin` and each `exports` target. */
function namedFiles(manifest: PackageJson): string[] {
  const targets = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(targets)
        : [];
  return [
    manifest.main,
    manifest.module,
    manifest.types,
    ...Object.values(manifest.bin ?? {}),
    ...targets(manifest.exports),
  ]
    .filter((path): path is string => path !== undefined && path !== './package.json')
    .map((path) => path.replace(/^\.\//, ''));
}

/** The `tsc` of a compiler alias. */
function tsc(compiler: Compiler): string {
  return join(dirname(require.resolve(`${TYPESCRIPT[compiler]}/package.json`)), 'bin', 'tsc');
}

/** The scripts npm runs when a package is installed (`prepare` too, for a git dependency). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare'];

const work = mkdtempSync(join(tmpdir(), 'sdk-consumers-'));
const consumer = join(work, 'consumer');
try {
  // 1. The tarball.
  let tarball = '';
  await step(
    `npm pack${process.argv.includes('--no-build') ? ' (the dist/ already built)' : ' (builds through prepack)'}`,
    async () => {
      const args = ['pack', '--json', '--pack-destination', work];
      if (process.argv.includes('--no-build')) args.push('--ignore-scripts');
      // The report follows whatever `prepack` printed: it starts at a line of its own, `[`.
      const output = await run('npm', args, ROOT);
      const [packed] = JSON.parse(output.slice(output.search(/^\[$/m))) as Array<{
        filename: string;
        size: number;
        unpackedSize: number;
        files: Array<{ path: string }>;
      }>;
      if (!packed) throw new Error('npm pack answered no package');
      tarball = join(work, packed.filename);
      const files = new Set(packed.files.map((f) => f.path));
      const missing = namedFiles(pkg).filter((path) => !files.has(path));
      if (missing.length > 0) throw new Error(`the tarball lacks files package.json names: ${missing.join(', ')}`);
      const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
      if (packed.unpackedSize > PACKAGE_BUDGET_MB * 1e6)
        throw new Error(`unpacked ${mb(packed.unpackedSize)}, over the ${PACKAGE_BUDGET_MB} MB budget`);
      return `${packed.files.length} files, ${mb(packed.size)} packed, ${mb(packed.unpackedSize)} unpacked (budget ${PACKAGE_BUDGET_MB} MB)`;
    },
  );
  if (!tarball) throw new Error('no tarball to install');
  await step('no install-time script in the packed package.json (npm 11 warns of one)', async () => {
    const packed = JSON.parse(await run('tar', ['-xzOf', tarball, 'package/package.json'], ROOT)) as {
      scripts?: Record<string, string>;
    };
    const found = INSTALL_SCRIPTS.filter((name) => packed.scripts?.[name] !== undefined);
    if (found.length > 0) throw new Error(`the packed package.json runs ${found.join(', ')} on install`);
    return undefined;
  });
  await step('publint --strict (the tarball)', () =>
    run('npx', ['publint', 'run', tarball, '--strict'], ROOT).then(() => undefined),
  );
  await step('attw --profile node16 (the tarball)', () =>
    run('npx', ['attw', tarball, '--profile', 'node16'], ROOT).then(() => undefined),
  );

  // 2. One install of the tarball, with msw and Node's types at the versions this repository uses.
  await step('npm install the tarball in a project of its own', async () => {
    cpSync(FIXTURES, consumer, { recursive: true });
    const dependencies = {
      [pkg.name]: `file:${tarball}`,
      msw: pkg.devDependencies.msw,
      '@types/node': pkg.devDependencies['@types/node'],
    };
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ private: true, dependencies }, null, 2));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], consumer);
    return undefined;
  });

  // 3. The declarations, as each consumer's compiler reads them.
  const checks = CHECKS.flatMap(([config, compilers]) =>
    compilers.map(
      (compiler) => () =>
        step(`tsc ${config} (TypeScript ${compiler}, ${require(`${TYPESCRIPT[compiler]}/package.json`).version})`, () =>
          run(process.execPath, [tsc(compiler), '-p', config], consumer).then(() => undefined),
        ),
    ),
  );
  await pool(checks, Math.max(1, Math.min(2, availableParallelism())));

  // 4. The fixtures compiled and run, in both formats, with msw and without.
  const emit = (config: string, out: string) =>
    run(process.execPath, [tsc('newest'), '-p', config, '--noEmit', 'false', '--outDir', out], consumer);
  await step('compile the ES module fixture', () =>
    emit('esm/tsconfig.nodenext.json', 'esm/out').then(() => undefined),
  );
  await step('compile the CommonJS fixture', () => emit('cjs/tsconfig.msw.json', 'cjs/out').then(() => undefined));
  const node = (args: string[]) => run(process.execPath, args, consumer);
  const hideCjs = join(work, 'hide-msw.cjs');
  writeFileSync(hideCjs, HIDE_MSW_CJS);
  for (const file of ['index.js', 'subpaths.js', 'openapi.js', 'openapi-require.js']) {
    await step(`node esm/out/${file}`, () => node([`esm/out/${file}`]));
  }
  await step('node esm/out/without-msw.js (msw hidden)', () =>
    node(['--import', HIDE_MSW_ESM_URL, 'esm/out/without-msw.js']),
  );
  for (const file of ['index.js', 'subpaths.js', 'msw.js', 'lazy-loads.js']) {
    await step(`node cjs/out/${file}`, () => node([`cjs/out/${file}`]));
  }
  await step('node cjs/out/without-msw.js (msw hidden)', () => node(['--require', hideCjs, 'cjs/out/without-msw.js']));
  await step('the CommonJS build has no import() (jest refuses it)', async () => {
    const dist = join(consumer, 'node_modules', pkg.name, 'dist');
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.cjs'));
    const found = files.filter((f) => /\bimport\(/.test(readFileSync(join(dist, f), 'utf8')));
    if (found.length > 0) throw new Error(`import() in ${found.join(', ')}`);
    return `${files.length} files`;
  });
  const runtime = join(work, 'commonjs-runtime.cjs');
  writeFileSync(runtime, COMMONJS_RUNTIME_CJS);
  for (const file of ['index.js', 'subpaths.js', 'msw.js', 'lazy-loads.js']) {
    await step(`node cjs/out/${file} as jest's CommonJS runtime runs it`, () =>
      node(['--require', runtime, `cjs/out/${file}`]),
    );
  }
  await step("node cjs/out/without-msw.js as jest's CommonJS runtime runs it (msw hidden)", () =>
    node(['--require', runtime, '--require', hideCjs, 'cjs/out/without-msw.js']),
  );

  // 5. A browser bundle: the `browser` condition's build, with no Node module and no top-level await.
  await step('bundle esm/browser.ts for a browser (esbuild, es2020)', async () => {
    const out = await build({
      entryPoints: [join(consumer, 'esm/browser.ts')],
      absWorkingDir: consumer,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2020',
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    const inputs = Object.keys(out.metafile.inputs).filter((path) => path.includes(`${pkg.name}/`));
    if (!inputs.some((path) => path.endsWith('dist/mock/browser.js')))
      throw new Error(`the bundle took ${inputs.join(', ')}, not dist/mock/browser.js`);
    return `${inputs.length} files of the package bundled`;
  });

  // 6. The CLI, as `npx platform-mock` runs it.
  await step('node_modules/.bin/platform-mock --help', async () => {
    const help = await run(join(consumer, 'node_modules/.bin/platform-mock'), ['--help'], consumer);
    if (!help.includes('Usage: platform-mock')) throw new Error(help);
    return undefined;
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(`\n${passes} passed, ${failures} failed`);
if (failures > 0) process.exitCode = 1;
