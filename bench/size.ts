/**
 * What a site's bundle weighs, measured with esbuild (minified, gzip level 9), as a browser build
 * bundles the package: the sign-on helpers alone (a site that only sends users to the shop and
 * guards its tickets), and the whole SDK entry with every endpoint.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Result } from './harness.js';

const ENTRY = new URL('../src/index.ts', import.meta.url).pathname;

async function gzippedBytes(contents: string): Promise<number> {
  const out = await build({
    stdin: { contents, resolveDir: new URL('.', import.meta.url).pathname, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  return gzipSync(out.outputFiles[0]!.contents, { level: 9 }).byteLength;
}

function row(name: string, bytes: number, targetKb: number): Result {
  const kb = bytes / 1024;
  return { name, baseline: targetKb, subject: kb, unit: 'KB', ratio: kb / targetKb, spread: [1, 1], target: 1 };
}

/** The two sizes, each against its target (ratio = size / target, so at most 1). */
export async function measureSizes(): Promise<Result[]> {
  const signOn = await gzippedBytes(
    `export { marketplaceUrl, ReplayGuard, MemoryTicketStore } from ${JSON.stringify(ENTRY)};`,
  );
  const whole = await gzippedBytes(`export * from ${JSON.stringify(ENTRY)};`);
  return [
    row('sign-on helpers (marketplaceUrl, ReplayGuard, MemoryTicketStore), min+gz, vs 3 KB', signOn, 3),
    row('the whole SDK entry, every endpoint, min+gz, vs 50 KB', whole, 50),
  ];
}
