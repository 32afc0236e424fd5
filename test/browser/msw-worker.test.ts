/**
 * `subscription-platform-sdk/mock` in a real browser: the reference platform under MSW's
 * setupWorker, answering plain fetch and the SDK in Chromium. The page is bundled for the browser
 * platform, so a Node-only import anywhere in the SDK or the platform fails the build.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hasChromium, launchChromium, requireChromium } from './chromium.js';
import { pageResult, serveWorkerPage, type WorkerPage } from './worker-page-server.js';

requireChromium('test/browser/msw-worker.test.ts');

describe.skipIf(!hasChromium)('the reference platform under MSW setupWorker in Chromium', () => {
  let served: WorkerPage;
  let browser: Browser;

  beforeAll(async () => {
    served = await serveWorkerPage('test/browser/worker-page.ts');
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  test('plain fetch and the SDK get the spec answers, errors and writes from the in-browser platform', async () => {
    const { result, errors } = await pageResult(browser, served.origin);
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
