/**
 * The SDK's retention calls in a real browser (Chromium), against the reference platform under
 * MSW's setupWorker: endpoint 6 (a GET with a JSON body, which a browser's fetch cannot send) fails
 * at once with `UnsupportedRequestError` and sends nothing, while endpoint 14 and endpoint 7 work.
 * A site asks endpoint 6 from its server instead (test/browser/cancel.test.ts).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getCancellationReason, pathOf, subscribeToCampaign } from '../../src/endpoints.js';
import { hasChromium, launchChromium, requireChromium } from './chromium.js';
import { pageResult, serveWorkerPage, type WorkerPage } from './worker-page-server.js';

requireChromium('test/browser/retention-browser.test.ts');

describe.skipIf(!hasChromium)('retention from a browser page, under MSW setupWorker in Chromium', () => {
  let served: WorkerPage;
  let browser: Browser;

  beforeAll(async () => {
    served = await serveWorkerPage('test/browser/retention-page.ts');
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  test('endpoint 6 fails at once with UnsupportedRequestError and sends nothing; endpoints 14 and 7 work', async () => {
    const { result, errors } = await pageResult(browser, served.origin);
    expect(errors).toEqual([]);
    expect(result).toMatchObject({
      // Endpoint 14 from the browser: the reasons shown to customers, in index order.
      reasons: ['too_expensive', 'no_time', 'moved_abroad'],
      // Endpoint 6: refused by the SDK itself, at once, with a message that says why and what to do
      // (not a timeout, which would be an APITimeoutError, nor a network wait: nothing was sent).
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
    expect((result as { journal: string[] }).journal).toEqual([
      `200 GET ${pathOf(getCancellationReason, 'stage')}`,
      `200 ${subscribeToCampaign.method} ${pathOf(subscribeToCampaign, 'stage')}`,
    ]);
  }, 60_000);
});
