/**
 * What a site's bundle weighs, measured with esbuild (minified, gzip level 9, code splitting on), as
 * a browser build bundles the package: the sign-on helpers alone (a site that only sends users to
 * the shop and guards its tickets), and the whole SDK entry with every endpoint. What the SDK loads
 * on first use (ky, for the first retry; jose, for SSO tokens; the compiled checks of the hot
 * answers, on the first of them) lands in chunks of their own: the entry row counts what a page
 * downloads before that, and the lazy chunks are a row of their own.
 * And what an install downloads and writes: the package as `npm pack` makes it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Result } from './harness.js';

/**
 * The most the installed package (`npm pack`'s unpacked size) may weigh, in MB: 2.5 until the parity
 * run (Node only, about 90 KB of code per format) took it to 2.59, 2.75 until the compiled checks of
 * the hot answers (62 KB of code per format, and its source map) took it to 2.89, and 2.95 until the
 * shared server's namespace rules, the journal's scans of multipart and JSON-like bodies and the
 * CLI's watch of npm (44 KB in all, the platform's only) took it to 2.954, and 3 until the refusals
 * of bad input and of quoted secrets in the SDK, the server's pipelining lanes and absolute-form
 * targets, and the JSON fault finder for seed and state files took it to 3.03, and 3.1 until the
 * CommonJS build bundled ky and jose, which publish ES modules only (jest's CommonJS runtime and
 * Node before 20.19 cannot require them; 66 KB, in that build only), and took it to 3.11, and 3.2
 * until the SDK's one return-URL rule, the secrets signed into SSO request tokens kept out of its
 * errors and the rules of a call's options and of tickets (19.5 KB), then a cap for every record a
 * request adds with its option, flag and help, the e-mail rule and endpoint 4's computed body limit
 * (26 KB) took it to 3.22, and 3.3 until the shop's sign-up form with its cap and its option's
 * docs (14 KB of code, types and maps) took it from 3.287 to 3.301.
 */
export const PACKAGE_BUDGET_MB = 3.4;

const ENTRY = new URL('../src/index.ts', import.meta.url).pathname;
const SIGN_ON = new URL('../src/sign-on/index.ts', import.meta.url).pathname;
const HERE = new URL('.', import.meta.url).pathname;
const ROOT = new URL('..', import.meta.url).pathname;

/** Gzipped bytes of the entry chunk, and of the chunks it loads lazily (dynamic `import()`). */
async function gzippedBytes(contents: string): Promise<{ entry: number; lazy: number }> {
  const out = await build({
    stdin: { contents, resolveDir: HERE, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    outdir: `${HERE}.size-out`,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const gz = (path: string) =>
    gzipSync(out.outputFiles.find((f) => f.path === path)?.contents ?? new Uint8Array(), { level: 9 }).byteLength;
  const outputs = Object.entries(out.metafile.outputs).filter(([path]) => path.endsWith('.js'));
  const [entryPath, entryMeta] = outputs.find(([, meta]) => meta.entryPoint !== undefined) ?? [];
  if (!entryPath || !entryMeta) throw new Error('esbuild produced no entry chunk');
  const resolve = (path: string) => new URL(path, `file://${process.cwd()}/`).pathname;
  // Static imports of the entry are downloaded with it; dynamic ones only on first use.
  const eager = new Set([
    entryPath,
    ...entryMeta.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path),
  ]);
  let entry = 0;
  let lazy = 0;
  for (const [path] of outputs) {
    if (eager.has(path)) entry += gz(resolve(path));
    else lazy += gz(resolve(path));
  }
  return { entry, lazy };
}

/** The most the sign-on helpers alone may weigh, min+gz, in KB. */
export const SIGN_ON_BUDGET_KB = 3;
/** The most the whole SDK entry (every endpoint) may weigh, min+gz, in KB; docs/architecture.md says what raised it. */
export const ENTRY_BUDGET_KB = 58;
/** The most the chunks the SDK entry loads on first use may weigh together, min+gz, in KB. */
export const LAZY_BUDGET_KB = 16;

/** What a browser build downloads of the SDK, in gzipped bytes: see {@link measureSizes}. */
export interface BundleSizes {
  /** The sign-on helpers alone (`marketplaceUrl`, `ReplayGuard`, `MemoryTicketStore`), eager chunks. */
  signOn: number;
  /** The whole SDK entry, every endpoint: the chunks a page downloads with it. */
  entry: number;
  /** The chunks the whole entry loads on first use (ky, jose, the compiled checks). */
  lazy: number;
}

/** The SDK's bundle sizes, as esbuild bundles the sources for a browser (no build needed). */
export async function bundleSizes(): Promise<BundleSizes> {
  const signOn = await gzippedBytes(
    `export { marketplaceUrl, ReplayGuard, MemoryTicketStore } from ${JSON.stringify(SIGN_ON)};`,
  );
  const whole = await gzippedBytes(`export * from ${JSON.stringify(ENTRY)};`);
  return { signOn: signOn.entry, entry: whole.entry, lazy: whole.lazy };
}

function row(name: string, bytes: number, targetKb: number): Result {
  const kb = bytes / 1024;
  return { name, baseline: targetKb, subject: kb, unit: 'KB', ratio: kb / targetKb, spread: [1, 1], target: 1 };
}

/** The package's size as `npm pack` reports it, packed and unpacked, in bytes. */
async function packedBytes(): Promise<{ size: number; unpackedSize: number }> {
  // `prepack` runs first (a fresh build): the report follows what it printed, from a line of its own, `[`.
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.search(/^\[$/m))) as Array<{ size: number; unpackedSize: number }>;
  if (!packed) throw new Error('npm pack answered no package');
  return packed;
}

/** The sizes, each against its target (ratio = size / target, so at most 1). */
export async function measureSizes(): Promise<Result[]> {
  const sizes = await bundleSizes();
  const pack = await packedBytes();
  const mb = (bytes: number) => bytes / 1e6;
  return [
    row(
      `/sign-on helpers (marketplaceUrl, ReplayGuard, MemoryTicketStore), min+gz, vs ${SIGN_ON_BUDGET_KB} KB`,
      sizes.signOn,
      SIGN_ON_BUDGET_KB,
    ),
    row(`the whole SDK entry, every endpoint, min+gz, vs ${ENTRY_BUDGET_KB} KB`, sizes.entry, ENTRY_BUDGET_KB),
    row(
      `  loaded on first use (ky for a retry, jose for SSO, the hot answers' checks), min+gz, vs ${LAZY_BUDGET_KB} KB`,
      sizes.lazy,
      LAZY_BUDGET_KB,
    ),
    {
      name: `the package as installed (npm pack, unpacked), vs ${PACKAGE_BUDGET_MB} MB`,
      baseline: PACKAGE_BUDGET_MB,
      subject: mb(pack.unpackedSize),
      unit: 'MB',
      ratio: mb(pack.unpackedSize) / PACKAGE_BUDGET_MB,
      spread: [1, 1],
      target: 1,
    },
    {
      name: '  the tarball an install downloads (npm pack, packed)',
      baseline: mb(pack.size),
      subject: mb(pack.size),
      unit: 'MB',
      ratio: 1,
      spread: [1, 1],
      target: undefined,
    },
  ];
}
