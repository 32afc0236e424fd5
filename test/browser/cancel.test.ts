/**
 * "Cancel my subscription" on the example site, in Chromium: Anna logs in (SSO), buys Premium
 * Digital in the shop (an activated, recurring, platform-controlled subscription: eligible for the
 * retention offer), and on the cancel page is offered the campaign (endpoint 6, asked by the site's
 * Node server with a JSON body on a GET). She accepts (endpoint 7: the subscription moves to the
 * campaign) or declines with a reason (cancel product: cancelled, still in term).
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { demoIds, demoUsers } from '../../mock/index.js';
import { cancelProduct, eligibleForCampaign, pathOf, subscribeToCampaign } from '../../src/endpoints.js';
import { hasChromium, requireChromium } from './chromium.js';
import { logInWithForm, recordingPage, text, useDemoSitesInChromium, withScreenshots } from './sites.js';

const TIMEOUT = 60_000;

requireChromium('test/browser/cancel.test.ts');

const anna = demoUsers.anna;

describe.skipIf(!hasChromium)('cancel my subscription, with a retention offer first, in Chromium', () => {
  const sites = useDemoSitesInChromium(TIMEOUT);
  const { contexts, newContext } = sites;

  /** The user-product as the platform holds it. */
  const userProduct = (id: string) => sites.demo.platform.platform.snapshot().user_products.find((u) => u.id === id);

  /** The requests of one endpoint the platform answered, as `status method`. */
  const calls = (path: string) =>
    sites.demo.platform.platform.requests
      .list()
      .filter((e) => e.path === path)
      .map((e) => `${e.status} ${e.method}`);

  /**
   * Logs Anna in on site A, buys Premium Digital in the shop (no second login) and comes back; then
   * opens the cancel page for that subscription. Answers its id.
   */
  async function buyThenOpenCancelPage(page: Page): Promise<string> {
    const a = sites.demo.siteA.urlFor('localhost');
    await logInWithForm(page, a, anna, 'Anna Andersson');
    await page.getByTestId('subscribe').click();
    await page.waitForURL((url) => url.pathname === '/marketplace/demo/main');
    await page.locator('input[name="period_id"][data-product-code="premium-digital"]').first().check();
    await page.getByTestId('buy').click();
    await page.getByTestId('confirmation').waitFor();
    const id = (await page.getByTestId('confirmation').getAttribute('data-user-product-id')) ?? '';
    expect(userProduct(id)).toMatchObject({
      product_code: 'premium-digital',
      state: 'activated',
      provision_service: null,
    });
    await page.getByTestId('return-to-site').click();
    await page.waitForURL(`${a}/`);

    await page.getByTestId('cancel-subscription').click();
    await page.waitForURL(`${a}/cancel`);
    const row = page.locator(`[data-testid="subscription-row"][data-user-product-id="${id}"]`);
    expect(await row.getAttribute('data-state')).toBe('activated');
    await row.getByTestId('cancel-link').click();
    await page.getByTestId('cancel-form').waitFor();

    // The offer (endpoint 6, sent by the site's server as a GET with a JSON body) ...
    const offer = page.getByTestId('retention-offer');
    expect(await offer.getAttribute('data-campaign-code')).toBe('premium-summer');
    expect(await offer.textContent()).toContain('Stay with Premium Digital at half price');
    expect(calls(pathOf(eligibleForCampaign, 'stage'))).toEqual(['200 GET']);
    // ... and the reasons a customer may give (endpoint 14): in index order, none internal or hidden.
    expect(await page.getByTestId('cancel-reason').locator('option').allTextContents()).toEqual([
      'I would rather not say',
      'Too expensive',
      'No time to read',
      'Moved abroad',
    ]);
    return id;
  }

  test(
    'accepting the retention offer moves the subscription to the campaign (endpoint 7), and it is not offered again',
    async () => {
      const context = await newContext();
      const { page } = await recordingPage(context);
      await withScreenshots(contexts, 'cancel-accept', async () => {
        const id = await buyThenOpenCancelPage(page);
        await page.getByTestId('accept-offer').click();
        await page.getByTestId('retained').waitFor();
        expect(await text(page, 'retained')).toContain('You stay with us on Stay with Premium Digital at half price');
        expect(calls(pathOf(subscribeToCampaign, 'stage'))).toEqual([`200 ${subscribeToCampaign.method}`]);
        expect(userProduct(id)).toMatchObject({
          product_code: 'premium-summer',
          product_id: demoIds.products.premiumSummer,
          state: 'activated',
          retention_offer_id: demoIds.retentionOffers.premiumStay,
        });

        // Back on the cancel page for it: no second offer, only the plain cancel form.
        await page.goto(`${sites.demo.siteA.urlFor('localhost')}/cancel?id=${id}`);
        expect(await page.getByTestId('not-eligible').getAttribute('data-code')).toBe('already_on_campaign');
        expect(await page.getByTestId('retention-offer').count()).toBe(0);
        expect(await text(page, 'confirm-cancel')).toBe('Cancel my subscription');
      });
    },
    TIMEOUT,
  );

  test(
    'declining the offer cancels with the reason given: cancelled, still in term',
    async () => {
      const context = await newContext();
      const { page } = await recordingPage(context);
      await withScreenshots(contexts, 'cancel-decline', async () => {
        const id = await buyThenOpenCancelPage(page);
        await page.getByTestId('cancel-reason').selectOption({ label: 'Too expensive' });
        expect(await text(page, 'confirm-cancel')).toBe('No thanks, cancel my subscription');
        await page.getByTestId('confirm-cancel').click();
        await page.getByTestId('cancelled').waitFor();
        expect(calls(pathOf(cancelProduct, 'stage'))).toEqual([`200 ${cancelProduct.method}`]);
        expect(calls(pathOf(subscribeToCampaign, 'stage'))).toEqual([]);

        const after = userProduct(id);
        expect(after).toMatchObject({
          product_code: 'premium-digital',
          state: 'cancelled',
          cancellation_reason_id: demoIds.cancellationReasons.tooExpensive,
          retention_offer_id: null,
        });
        // Still in term: it runs to the end of its period, and the page says until when.
        const validTo = after?.valid_to ?? '';
        expect(Date.parse(validTo)).toBeGreaterThan(sites.demo.platform.platform.clock.now().getTime());
        expect(await text(page, 'runs-until')).toBe(validTo.slice(0, 10));

        // The list shows it cancelled, with no cancel link.
        await page.goto(`${sites.demo.siteA.urlFor('localhost')}/cancel`);
        const row = page.locator(`[data-testid="subscription-row"][data-user-product-id="${id}"]`);
        expect(await row.getAttribute('data-state')).toBe('cancelled');
        expect(await row.getByTestId('cancel-link').count()).toBe(0);
      });
    },
    TIMEOUT,
  );
});
