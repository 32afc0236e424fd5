/**
 * `subscription-platform-sdk/mock` in a real browser: the reference platform under MSW's
 * setupWorker, answering plain fetch and the SDK in Chromium. The page is bundled for the browser
 * platform, so a Node-only import anywhere in the SDK or the platform fails the build.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hasChromium, launchChromium, requireChromium } from './chromium.js';

requireChromium('test/browser/msw-worker.test.ts');

const root = new URL('../../', import.meta.url);

describe.skipIf(!hasChromium)('the reference platform under MSW setupWorker in Chromium', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'worker-page-'));
    await build({
      config: false,
      entry: { page: new URL('test/browser/worker-page.ts', root).pathname },
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
    server = createServer((req, res) => {
      const file = files[new URL(req.url ?? '/', 'http://x').pathname];
      res.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' });
      res.end(file?.[1] ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  test('plain fetch and the SDK get the spec answers, errors and writes from the in-browser platform', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(origin);
    await page.waitForFunction(() => (window as { __result?: unknown }).__result !== undefined, undefined, {
      timeout: 20_000,
    });
    const result = await page.evaluate(() => (window as { __result?: unknown }).__result);
    expect(errors).toEqual([]);
    expect(result).toMatchObject({
      packages: ['premium-digital', 'basic-news'],
      correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      refused: { status: 400, body: { code: 'invalid_parameter', field: 'id' } },
      creditcardPrice: 7.5,
      notFound: { status: 404, code: 'not_found', field: 'product_code' },
    });
    expect((result as { journal: string[] }).journal).toEqual([
      '200 GET /external/api/v1/products',
      '400 GET /external/api/v1/products',
      '200 POST /external/api/v1/prices',
      '200 GET /external/api/v1/products',
      '404 GET /external/api/v1/products/payment_periods',
    ]);
  }, 60_000);
});
