/**
 * What the documentation's examples run against, in Node (the snippet test) and in the reader's
 * browser (the site's "Run" control): the reference platform with its demo data, answering on the
 * example hosts the examples name, and the values a reader would supply (client credentials, ids)
 * in the environment variables the examples read.
 */
import { DEMO_SSO_AUDIENCE, demoIds, demoShop, demoSite, type Platform } from '../../mock/index.js';

/** The hosts of the documentation's examples. */
export const EXAMPLE_HOSTS = {
  api: 'https://api.example-platform.com',
  auth: 'https://auth.example-platform.com',
  sso: 'https://sso.example-platform.com',
  shop: 'https://shop.example-platform.com',
} as const;

/** The environment variables the examples read (`process.env.CLIENT_ID`...): the demo seed's values. */
export const EXAMPLE_ENV: Readonly<Record<string, string>> = {
  CLIENT_ID: demoSite.clientId,
  CLIENT_SECRET: demoSite.clientSecret,
  SITE_CLIENT_ID: demoSite.clientId,
  SITE_CLIENT_SECRET: demoSite.clientSecret,
  SHOP_CLIENT_ID: demoShop.clientId,
  ACCOUNT_ID: demoIds.accounts.anna,
  SSO_AUDIENCE: DEMO_SSO_AUDIENCE,
  ORGANISATION_ID: demoIds.organisations.demo,
};

/**
 * A `fetch` that answers the example hosts from `platform`, in process, and hands every other
 * request to `other`. Not MSW: an example may set up MSW itself (MSW's `setupServer` supports one
 * server at a time in a process), and it then sits in front of this one, as it would in front of
 * the runtime's own `fetch`.
 */
export function exampleFetch(platform: Platform, other: (request: Request) => Promise<Response>): typeof fetch {
  const origins = new Set<string>(Object.values(EXAMPLE_HOSTS));
  return (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    return origins.has(new URL(request.url).origin) ? platform.handle(request) : other(request);
  };
}
