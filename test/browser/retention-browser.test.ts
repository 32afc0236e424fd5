/**
 * The SDK's retention calls in a real browser (Chromium), against the reference platform under
 * MSW's setupWorker: endpoint 6 (a GET with a JSON body, which a browser's fetch cannot send) fails
 * at once with `UnsupportedRequestError` and sends nothing, while endpoint 14 and endpoint 7 work.
 * A site asks endpoint 6 from its server instead (test/browser/cancel.test.ts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getCancellationReason, pathOf, subscribeToCampaign } from '../../src/endpoints.js';
import { hasChromium, launchChromium, requireChromium } from './chromium.js';

requireChromium('test/browser/retention-browser.test.ts');

const root = new URL('../../', import.meta.url);

describe.skipIf(!hasChromium)('retention from a browser page, under MSW setupWorker in Chromium', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'retention-page-'));
    await build({
      config: false,
      entry: { page: new URL('test/browser/retention-page.ts', root).pathname },
      outDir,
      format: ['esm'],
      platform: 'browser',
      target: 'es2022',
      noExternal: [/.*/],
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

  test('endpoint 6 fails at once with UnsupportedRequestError and sends nothing; endpoints 14 and 7 work', async () => {
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
      // Endpoint 14 from the browser: the reasons shown to customers, in index order.
      reasons: ['too_expensive', 'no_time', 'moved_abroad'],
      // Endpoint 6: refused by the SDK itself, with a message that says why and what to do.
      refused: {
        name: 'UnsupportedRequestError',
        unsupported: true,
        platformError: true,
        message: expect.stringMatching(/body of a GET.*\(a browser\): call it from a server \(Node\)/),
      },
      // Only endpoint 14 had reached the platform when endpoint 6 was refused.
      requestsAfterRefusal: 1,
      // Endpoint 7 (a PUT) from the browser: Gus's Premium Digital moved to the campaign.
      campaign: 'premium-summer',
      productAfter: 'premium-summer',
    });
    // At once: no timeout, no retry, no network wait.
    expect((result as { refused: { ms: number } }).refused.ms).toBeLessThan(1000);
    expect((result as { journal: string[] }).journal).toEqual([
      `200 GET ${pathOf(getCancellationReason, 'stage')}`,
      `200 ${subscribeToCampaign.method} ${pathOf(subscribeToCampaign, 'stage')}`,
    ]);
  }, 60_000);
});
