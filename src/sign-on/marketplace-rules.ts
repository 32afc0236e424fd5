// Generated from the endpoint table's `marketplace` entry (endpoint 25) and its `MarketplaceQuery` schema, for
// the shop URL helper, which checks them without loading zod. Do not edit: after a change of either,
// `UPDATE_GENERATED=1 npx vitest run test/sign-on/marketplace-rules.test.ts` rewrites it.

/** The path of endpoint 25 on `{shop_url}`: each `{name}` segment is an id. */
export const MARKETPLACE_PATH = '/marketplace/{groupId}/{marketplaceId}';

/** The query parameters of endpoint 25 in the schema's order: the name on the wire, whether required, length bounds. */
export const MARKETPLACE_QUERY = [
  { name: 'at', required: true, minLength: 1, maxLength: 512 },
  { name: 'returnUrl', required: false, minLength: 1 },
  { name: 'campaign', required: false, minLength: 1 },
  { name: 'period', required: false, minLength: 1 },
] as const;
