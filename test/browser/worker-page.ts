/**
 * A page bundled for the browser (test/browser/msw-worker.test.ts): the reference platform under
 * MSW's setupWorker, called with plain fetch and with the SDK. It leaves what it saw in
 * `window.__result`.
 */
import { setupWorker } from 'msw/browser';
import { createHandlers, createPlatform, defaultHosts } from '../../mock/index.js';
import { NotFoundError, PlatformClient } from '../../src/index.js';
import { reportResult } from './page-result.js';

async function run() {
  const platform = createPlatform({ seed: 'demo' });
  const worker = setupWorker(...createHandlers(platform, defaultHosts));
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'error', quiet: true });

  const { access_token } = platform.mintToken({ scopes: ['/external/product/r', '/external/price/w'] });
  const raw = await fetch(`${defaultHosts.api}/external/api/v1/products?product_type=packages`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  const rawBody = (await raw.json()) as { items: { product_code: string }[] };
  const refused = await fetch(`${defaultHosts.api}/external/api/v1/products?id=nope`, {
    headers: { authorization: `Bearer ${access_token}` },
  });

  const client = new PlatformClient({ environment: 'stage', hosts: defaultHosts, auth: { accessToken: access_token } });
  await client.prices.update({
    package_integration_code: 'PREMIUM-DIGITAL',
    price_periods: [
      { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 7.5 },
    ],
  });
  const { items } = await client.products.list({ product_code: 'premium-digital' });
  let notFound: unknown;
  try {
    await client.products.paymentPeriods({ product_code: 'no-such-package' });
  } catch (error) {
    notFound =
      error instanceof NotFoundError ? { status: error.status, code: error.code, field: error.field } : String(error);
  }
  worker.stop();
  return {
    packages: rawBody.items.map((p) => p.product_code),
    correlationId: raw.headers.get('x-correlation-id'),
    refused: { status: refused.status, body: await refused.json() },
    creditcardPrice: items[0]?.price_periods.find((p) => p.payment_option === 'creditcard')?.price,
    notFound,
    journal: platform.requests.list().map((r) => `${r.status} ${r.method} ${r.path}`),
  };
}

reportResult(run);
