// Generated from the TSDoc of `PlatformClient`'s properties (src/client.ts) by
// test/openapi-contract.test.ts: `UPDATE_GENERATED=1 npx vitest run test/openapi-contract.test.ts` rewrites it.

/**
 * What each SDK resource (a property of `PlatformClient`) is, as its TSDoc there says: the
 * description of its tag. An operation's tag is the resource its entry names (`sdk`), so a
 * generator's classes are the SDK's.
 */
export const RESOURCE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  products: "Products, packages and campaigns: endpoints 2, 3 and 15",
  prices: "Prices of packages and campaigns: endpoint 1",
  orders: "Order validation and gift receivers: endpoints 9 and 17",
  authorization: "Tickets and user tokens on the authorization API: endpoints 22 and 23",
  me: "The signed-in user, read with the user's token: endpoint 24, and the documented me API (beyond the spec)",
  accounts: "Accounts' active products (beyond the spec: the account API)",
  titles: "The organisation's titles (beyond the spec: the titles API)",
  sso: "The SSO session service: endpoint 21, and identify, sessions, login and logout (beyond the spec)",
  shop: "The shop: endpoint 25",
  userProducts: "User-products of this client's provision service: endpoints 13 and 12",
  subscriptions: "Subscriptions between accounts: endpoint 5",
  subscriptionSystem: "The subscription system: reactivation (16) and the external system's sync and distribution (18, 19, 20)",
  accountChangeLog: "Change-log entries on accounts, and their categories: endpoint 4",
  helpdesk: "The helpdesk's reads: endpoints 8, 10 and 11",
  cancellationReasons: "Cancellation reasons: endpoint 14",
  meRetention: "Retention for the signed-in user: endpoints 6 and 7",
};
