/**
 * Loaded before each documentation snippet (`node --import`): the embedded reference platform,
 * answering on the example hosts the snippets use, and the values a reader would supply (client
 * credentials, ids) in the environment variables the snippets read.
 */
import { setupServer } from 'msw/node';
import { createHandlers, createPlatform, DEMO_SSO_AUDIENCE, demoIds, demoShop, demoSite } from '../../mock/index.js';

/** The hosts of the documentation's examples. */
export const EXAMPLE_HOSTS = {
  api: 'https://api.example-platform.com',
  auth: 'https://auth.example-platform.com',
  sso: 'https://sso.example-platform.com',
  shop: 'https://shop.example-platform.com',
} as const;

const platform = createPlatform({ seed: 'demo' });
// A snippet that starts the standalone server (`startServer`) reaches it on loopback; any other
// request MSW does not answer is an error.
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
setupServer(...createHandlers(platform, EXAMPLE_HOSTS)).listen({
  onUnhandledRequest: (request, print) => {
    if (!LOOPBACK.has(new URL(request.url).hostname)) print.error();
  },
});

Object.assign(process.env, {
  CLIENT_ID: demoSite.clientId,
  CLIENT_SECRET: demoSite.clientSecret,
  SITE_CLIENT_ID: demoSite.clientId,
  SITE_CLIENT_SECRET: demoSite.clientSecret,
  SHOP_CLIENT_ID: demoShop.clientId,
  ACCOUNT_ID: demoIds.accounts.anna,
  SSO_AUDIENCE: DEMO_SSO_AUDIENCE,
  ORGANISATION_ID: demoIds.organisations.demo,
});
