/**
 * docs/test-authors.md: code that calls the platform on its own hosts is tested with the platform
 * served there (`createHandlers(platform, origins)`), and a client made for `production` meets a
 * platform made for it; a stage platform answers production's spelling of endpoint 10 with a 404.
 */
import { readFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createHandlers, createPlatform } from '../../mock/index.js';
import { demoIds } from '../../mock/seeds/demo.js';
import { NotFoundError, PlatformClient } from '../../src/index.js';

const own = { api: 'https://api.stage.example.com', auth: 'https://auth.stage.example.com' };
const other = { api: 'https://api.other.example.com', auth: 'https://auth.other.example.com' };
const production = createPlatform({ seed: 'demo', environment: 'production' });
const stage = createPlatform({ seed: 'demo' });
const server = setupServer(...createHandlers(production, own), ...createHandlers(stage, other));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const client = (hosts: typeof own) =>
  new PlatformClient({
    environment: 'production',
    hosts,
    auth: { ...demoIds.clients.demo, scopes: ['/external/helpdesk/r', '/external/product/r'] },
    maxRetries: 0,
  });

test('the page shows the call that serves the platform on your own hosts, and the production platform', () => {
  const page = readFileSync(new URL('../../docs/test-authors.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  expect(page).toContain(`\`createHandlers(platform, { api: '${own.api}', auth: '${own.auth}' })\``);
  expect(page).toContain("`createPlatform({ seed: 'demo', environment: 'production' })`");
});

test('a production client reads on its own hosts, endpoint 10 included, from a production platform', async () => {
  const { items } = await client(own).products.list({ product_type: 'packages' });
  expect(items.map((p) => p.product_code)).toEqual(['premium-digital', 'basic-news']);
  const template = await client(own).helpdesk.template({ id: demoIds.helpdeskTemplates.invoice });
  expect(template.item.id).toBe(demoIds.helpdeskTemplates.invoice);
});

test("a stage platform answers the production client's endpoint 10 with a 404", async () => {
  const refused = await client(other)
    .helpdesk.template({ id: demoIds.helpdeskTemplates.invoice })
    .catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(NotFoundError);
});
