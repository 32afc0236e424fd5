/**
 * A page for the MSW-worker browser tests: a script bundled for the browser (one file, every
 * import inlined, so a Node-only import anywhere in the SDK or the platform fails the build),
 * served with MSW's worker on a free port, and what the page leaves in `window.__result`.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'tsup';

const root = new URL('../../', import.meta.url);

/** A served page: its origin, and how to stop serving it. */
export interface WorkerPage {
  readonly origin: string;
  close(): Promise<void>;
}

/** Bundles `entry` (a path from the repository's root) and serves it at `/` with `/mockServiceWorker.js`. */
export async function serveWorkerPage(entry: string): Promise<WorkerPage> {
  const outDir = mkdtempSync(join(tmpdir(), 'worker-page-'));
  await build({
    config: false,
    entry: { page: new URL(entry, root).pathname },
    outDir,
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    noExternal: [/.*/],
    // One file: the little server below serves only page.js.
    splitting: false,
    silent: true,
  });
  const files: Record<string, [string, string]> = {
    '/': ['text/html', '<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>'],
    '/page.js': ['text/javascript', readFileSync(join(outDir, 'page.js'), 'utf8')],
    '/mockServiceWorker.js': [
      'text/javascript',
      readFileSync(new URL('node_modules/msw/lib/mockServiceWorker.js', root), 'utf8'),
    ],
  };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' });
    res.end(file?.[1] ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Opens the page and waits for its `window.__result`; with the errors the page threw meanwhile. */
export async function pageResult(browser: Browser, origin: string): Promise<{ result: unknown; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(origin);
  await page.waitForFunction(() => (window as { __result?: unknown }).__result !== undefined, undefined, {
    timeout: 20_000,
  });
  const result = await page.evaluate(() => (window as { __result?: unknown }).__result);
  return { result, errors };
}
