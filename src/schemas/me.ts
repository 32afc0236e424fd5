import * as z from 'zod';
import { id } from './common.js';
import type { UserProductState } from './user-products.js';

// ---------------------------------------------------------------- cancel product (beyond the spec)

/**
 * Request body of `PUT /external/api/v1/me/cancel_product` (the platform's public documentation):
 * the user's user-product and, optionally, a cancellation reason (endpoint 14's `id`).
 */
export const CancelProductRequest = z.strictObject({
  /** The user-product to cancel. */
  id,
  cancellation_reason_id: id.optional(),
});
/** Request body of cancel product. */
export type CancelProductRequest = z.input<typeof CancelProductRequest>;

// ---------------------------------------------------------------- the me API as publicly documented (beyond the spec)

/** A user-product as the documented me API lists it (v1). */
export const DocumentedUserProduct = z.object({
  id: z.string(),
  order_id: z.string().nullable(),
  created: z.string(),
  updated: z.string(),
  product_code: z.string(),
  title_code: z.string(),
  valid_from: z.string(),
  valid_to: z.string(),
  provision_service: z.string().nullable(),
  subscription_type: z.string(),
});
/** A user-product of the documented me API (v1). */
export type DocumentedUserProduct = z.infer<typeof DocumentedUserProduct>;

/** A user-product as v3 of the me API lists it: v1's fields and its state and end dates. */
export const DocumentedUserProductV3 = DocumentedUserProduct.extend({
  /** A {@link UserProductState}, or a state this version does not know. */
  state: z.string() as z.ZodType<UserProductState | (string & {})>,
  subscription_number: z.string().nullable(),
  has_pending_change_request: z.boolean(),
  campaign_end_date: z.string().nullable(),
  subscription_end_date: z.string().nullable(),
});
/** A user-product of the documented me API (v3). */
export type DocumentedUserProductV3 = z.infer<typeof DocumentedUserProductV3>;

const DocumentedAddress = z.object({
  first_name: z.string(),
  last_name: z.string(),
  street: z.string(),
  street_number: z.string(),
  staircase: z.string(),
  floor: z.string(),
  apartment_number: z.string(),
  zip_code: z.string(),
  city: z.string(),
  drop_box: z.string(),
});

const documentedUser = {
  id: z.string(),
  email: z.string(),
  status: z.string(),
  verified: z.boolean(),
  customer_number: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  mobile_phone_number: z.string(),
  birth_date: z.string().nullable(),
  gender: z.string(),
  company_registration_number: z.string(),
  alias: z.string(),
  account_origin: z.string(),
  address: DocumentedAddress,
};

/** The signed-in user as the platform's public documentation shows `GET /external/api/v1/me`. */
export const DocumentedUser = z.object({ ...documentedUser, user_products: z.array(DocumentedUserProduct) });
/** The signed-in user, documented shape (v1). */
export type DocumentedUser = z.infer<typeof DocumentedUser>;
/** The signed-in user as `GET /external/api/v3/me` shows it. */
export const DocumentedUserV3 = z.object({ ...documentedUser, user_products: z.array(DocumentedUserProductV3) });
/** The signed-in user, documented shape (v3). */
export type DocumentedUserV3 = z.infer<typeof DocumentedUserV3>;

/** `{ item }` of `GET /external/api/v1/me` when the platform answers the documented shape. */
export const DocumentedMeResponse = z.object({ item: DocumentedUser });
/** `{ item }` of `GET /external/api/v1/me` in the documented shape. */
export type DocumentedMeResponse = z.infer<typeof DocumentedMeResponse>;
/** `{ item }` of `GET /external/api/v3/me`. */
export const DocumentedMeV3Response = z.object({ item: DocumentedUserV3 });
/** The answer of `GET /external/api/v3/me`. */
export type DocumentedMeV3Response = z.infer<typeof DocumentedMeV3Response>;

/**
 * `include_articles`: articles are not modelled, so only `false` (or absence) is accepted; as the
 * other boolean query parameters, `false` or `'false'`.
 */
export const includeArticles = z
  .union([z.literal(false), z.literal('false')], {
    error: 'include_articles is not supported: this platform models no articles',
  })
  .optional();

/** Query of `GET /external/api/v1/me/active_products`. */
export const MeActiveProductsQuery = z.strictObject({ include_articles: includeArticles });
/** Query of `GET /external/api/v1/me/active_products`. */
export type MeActiveProductsQuery = z.input<typeof MeActiveProductsQuery>;
/** `{ item: { id, active_products } }`: the account, and the product codes it has access to now. */
export const ActiveProductsResponse = z.object({
  item: z.object({ id: z.string(), active_products: z.array(z.string()) }),
});
/** The account's active products. */
export type ActiveProductsResponse = z.infer<typeof ActiveProductsResponse>;
