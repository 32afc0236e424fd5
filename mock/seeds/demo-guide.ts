/**
 * The demo seed as a suite in any language needs it (`GET /__admin/demo`): its organisations, its
 * clients with their secrets and scopes, its users with their account ids and shop passwords, and
 * the ids of its records, every key in snake_case. Demo values, public in this source.
 */
import { DEMO_SSO_AUDIENCE, demoIds, demoSeed, demoShop, demoUsers } from './demo.js';

/** `userProducts` as `user_products`. */
function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** An object of ids with every key in snake_case, nested objects included. */
function snakeKeys(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      snakeCase(k),
      typeof v === 'object' && v !== null ? snakeKeys(v as Record<string, unknown>) : v,
    ]),
  );
}

/** The answer of `GET /__admin/demo`. */
export interface DemoGuide {
  readonly seed: 'demo';
  readonly organisations: readonly { id: string; name: string }[];
  readonly clients: readonly {
    name: string;
    client_id: string;
    client_secret: string;
    organisation_id: string;
    scopes: readonly string[];
  }[];
  readonly users: readonly { name: string; account_id: string; email: string; password: string }[];
  readonly sso_audience: string;
  readonly shop_path: string;
  readonly ids: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** The demo seed's guide, built once from the seed itself (it cannot drift from the records). */
export const demoGuide: DemoGuide = (() => {
  const { clients: _, ...ids } = demoIds;
  return {
    seed: 'demo',
    organisations: (demoSeed.organisations ?? []).map(({ id, name }) => ({ id, name })),
    clients: (demoSeed.clients ?? []).map((c) => ({
      name: c.name ?? c.client_id,
      client_id: c.client_id,
      client_secret: c.client_secret,
      organisation_id: c.organisation_id,
      scopes: [...c.scopes],
    })),
    users: Object.entries(demoUsers).map(([name, u]) => ({
      name,
      account_id: u.id,
      email: u.email,
      password: u.password,
    })),
    sso_audience: DEMO_SSO_AUDIENCE,
    shop_path: `/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`,
    ids: snakeKeys(ids) as DemoGuide['ids'],
  };
})();
