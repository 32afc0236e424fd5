/**
 * A page bundled for the browser (test/browser/retention-browser.test.ts): the reference platform
 * under MSW's setupWorker, and the SDK asked for the retention flow from the browser itself.
 * Endpoint 6 sends its parameters in the body of a GET, which a browser's fetch cannot send: the
 * SDK must refuse it at once, before anything is sent, while endpoint 14 and endpoint 7 (a PUT)
 * work. It leaves what it saw in `window.__result`.
 */
import { setupWorker } from 'msw/browser';
import { createHandlers, createPlatform, defaultHosts, demoIds, demoSite } from '../../mock/index.js';
import { PlatformClient, PlatformError, UnsupportedRequestError } from '../../src/index.js';
import { reportResult } from './page-result.js';

async function run() {
  const platform = createPlatform({ seed: 'demo' });
  const worker = setupWorker(...createHandlers(platform, defaultHosts));
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'error', quiet: true });

  // The site's own token (endpoint 14), and Gus's user token (endpoints 6 and 7), as a site holds them.
  const site = platform.mintToken({ scopes: ['/external/cancellation_reason/r'], clientId: demoSite.clientId });
  const user = platform.mintToken({
    scopes: ['/external/me/r', '/external/me/w'],
    accountId: demoIds.accounts.gus,
    clientId: demoSite.clientId,
  });
  const client = new PlatformClient({
    environment: 'stage',
    hosts: defaultHosts,
    auth: { accessToken: site.access_token },
    maxRetries: 0,
  });
  const subscription = { user_product_id: demoIds.userProducts.gusPsp };

  const { items } = await client.cancellationReasons.list({ visible_to_end_customer: true });

  let refused: unknown = 'the call resolved';
  try {
    await client.meRetention.eligibleForCampaign(subscription, { accessToken: user.access_token });
  } catch (error) {
    refused = {
      name: error instanceof Error ? error.name : String(error),
      unsupported: error instanceof UnsupportedRequestError,
      platformError: error instanceof PlatformError,
      message: error instanceof Error ? error.message : String(error),
    };
  }
  const afterRefusal = platform.requests.list().length;

  const { item } = await client.meRetention.subscribeToCampaign(subscription, { accessToken: user.access_token });
  worker.stop();
  return {
    reasons: items.map((r) => r.code),
    refused,
    requestsAfterRefusal: afterRefusal,
    campaign: item.code,
    productAfter: platform.snapshot().user_products.find((u) => u.id === subscription.user_product_id)?.product_code,
    journal: platform.requests.list().map((r) => `${r.status} ${r.method} ${r.path}`),
  };
}

reportResult(run);
