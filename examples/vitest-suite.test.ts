import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createHandlers, createPlatform, defaultHosts } from '../mock/index.js';
import { PlatformClient } from '../src/index.js';

const platform = createPlatform({ seed: 'demo' });
const server = setupServer(...createHandlers(platform, defaultHosts));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => platform.reset());
afterAll(() => server.close());

test('a new price is visible to the next read', async () => {
  const { access_token } = platform.mintToken({ scopes: ['/external/price/w', '/external/product/r'] });
  const client = new PlatformClient({ environment: 'stage', hosts: defaultHosts, auth: { accessToken: access_token } });
  await client.prices.update({
    package_integration_code: 'PREMIUM-DIGITAL',
    price_periods: [
      { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 9.9 },
    ],
  });
  const { items } = await client.products.list({ product_code: 'premium-digital' });
  expect(items[0]?.price_periods.find((p) => p.payment_option === 'creditcard')?.price).toBe(9.9);
});
