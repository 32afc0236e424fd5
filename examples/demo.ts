/**
 * `npm run demo`: the SDK's main job, end to end, against the reference platform embedded in this
 * process (MSW). No network, no credentials: the platform is seeded with demo data.
 */
import { setupServer } from 'msw/node';
import { createHandlers, createPlatform, defaultHosts, demoCredentials } from '../mock/index.js';
import { APIError, PlatformClient, RequestValidationError } from '../src/index.js';

const platform = createPlatform({ seed: 'demo' });
const server = setupServer(...createHandlers(platform, defaultHosts));
server.listen({ onUnhandledRequest: 'error' });

const client = new PlatformClient({
  environment: 'stage',
  hosts: defaultHosts,
  auth: {
    clientId: demoCredentials.clientId,
    clientSecret: demoCredentials.clientSecret,
    scopes: ['/external/product/r', '/external/price/w'],
  },
});

const step = (title: string) => console.log(`\n\u25b6 ${title}`);
const money = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(2));

try {
  step('Get products: the packages on sale (endpoint 2)');
  const { items: packages } = await client.products.list({ product_type: 'packages' });
  for (const p of packages) {
    const periods = p.price_periods.map((pp) => `${pp.payment_option} ${pp.length} ${pp.type}: ${money(pp.price)}`);
    console.log(`  ${p.product_code.padEnd(22)} ${p.name.padEnd(28)} ${periods.join(' | ')}`);
  }

  const pkg = packages.find((p) => p.integration_code !== undefined);
  if (!pkg?.integration_code) throw new Error('the demo seed has no package with an integration code');

  step(`Get payment periods of ${pkg.product_code} (endpoint 3)`);
  const { items: periods } = await client.products.paymentPeriods({ product_code: pkg.product_code });
  for (const p of periods) {
    const details = p.details ? ` (${p.details.type} ${p.details.name})` : '';
    console.log(`  ${p.payment_method}${details}: ${p.iteration_length} ${p.iteration_type}, ${money(p.price)}`);
  }

  step(`Get product sharing of ${pkg.product_code} (endpoint 15)`);
  const { item: sharing } = await client.products.sharing({ code: pkg.product_code });
  for (const s of sharing) console.log(`  shareable: ${s.shareable}, limit ${s.limit}, "${s.sharing_title ?? ''}"`);

  step(
    `Update prices of ${pkg.integration_code}: creditcard monthly to 12.90, and a new yearly direct-debit period (endpoint 1)`,
  );
  const updated = await client.prices.update({
    package_integration_code: pkg.integration_code,
    price_periods: [
      { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 12.9 },
      { subscription_type: 'recurring', payment_option: 'directdebit', type: 'year', length: 1, price: 950 },
    ],
  });
  console.log(`  updated package ${updated.id}`);
  const { items: after } = await client.products.list({ product_code: pkg.product_code });
  for (const pp of after[0]?.price_periods ?? []) {
    console.log(`  now: ${pp.payment_option} ${pp.length} ${pp.type}: ${money(pp.price)}`);
  }

  step('Bad input is refused by the SDK before anything is sent');
  try {
    await client.products.list({ id: 'not-an-id' });
  } catch (err) {
    if (!(err instanceof RequestValidationError)) throw err;
    console.log(`  ${err.name}: field "${err.field}": ${err.rule}`);
  }

  step("An error from the platform carries the spec's status, code and field");
  try {
    await client.products.paymentPeriods({ product_code: 'no-such-package' });
  } catch (err) {
    if (!(err instanceof APIError)) throw err;
    console.log(
      `  ${err.name}: ${err.status} ${err.code} (field "${err.field ?? ''}"), correlation id ${err.correlationId}`,
    );
  }

  step('What the platform received (its request journal; secrets redacted)');
  for (const r of platform.requests.list()) console.log(`  ${r.status} ${r.method} ${r.path}`);
} finally {
  server.close();
}
