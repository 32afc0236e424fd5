import * as z from 'zod';
import { atMostOne, CODE_PATTERN, dateTime, exactlyOne, id, productCode, queryBoolean } from './common.js';

// ---------------------------------------------------------------- resources (as read)

/** A tag on a product: `name`, and `type` (a sample shows `package`). */
export const Tag = z.object({ name: z.string(), type: z.string() });
/** A product tag. */
export type Tag = z.infer<typeof Tag>;

/** A member product of a package: `id`, `product_code`, `name`, `description`. */
export const MemberProduct = z.object({
  id: z.string(),
  product_code: z.string(),
  name: z.string(),
  description: z.string(),
});
/** A product a package or campaign holds. */
export type MemberProduct = z.infer<typeof MemberProduct>;

/**
 * One line of the complex price model as read (and as the state document keeps it): `name`, `price`,
 * `vat_code`. Endpoint 1's rules for a line it takes are `PriceDetailInput`'s.
 */
export const PriceDetail = z.object({ name: z.string(), price: z.number(), vat_code: z.number().int() });
/** One line of the complex price model. */
export type PriceDetail = z.infer<typeof PriceDetail>;

/** The price of one iteration of a complex-model period: the sum of its lines, rounded to cents (0.1 + 0.2 is 0.3). */
export function sumOfDetails(details: readonly PriceDetail[]): number {
  return Math.round(details.reduce((sum, d) => sum + d.price, 0) * 100) / 100;
}

/** Purchase types of a period, and subscription types of a user-product. */
export const SubscriptionType = z.enum(['recurring', 'limited']);
/** `recurring` or `limited`. */
export type SubscriptionType = z.infer<typeof SubscriptionType>;
/** Iteration units of a period. */
export const PeriodType = z.enum(['day', 'week', 'month', 'year']);
/** A price period’s unit: `day`, `week`, `month` or `year`. */
export type PeriodType = z.infer<typeof PeriodType>;
/** Payment options accepted when updating prices (endpoint 1). */
export const PaymentOption = z.enum(['psp', 'creditcard', 'directdebit', 'free', 'invoice']);
/** A payment option: `psp`, `creditcard`, `directdebit`, `free` or `invoice`. */
export type PaymentOption = z.infer<typeof PaymentOption>;

/** A price period as read from a product: either `price` (simple model) or `details` (complex). */
export const PricePeriod = z.object({
  id: z.string(),
  purchase_type: z.string(),
  payment_option: z.string(),
  type: z.string(),
  length: z.number().int(),
  price: z.number().optional(),
  details: z.array(PriceDetail).optional(),
});
/** A price period as read from a product. */
export type PricePeriod = z.infer<typeof PricePeriod>;

/** A product, package or campaign (spec: "Product"). */
export const Product = z.object({
  id: z.string(),
  created: dateTime,
  updated: dateTime,
  product_code: z.string(),
  integration_code: z.string().optional(),
  valid_from: dateTime,
  valid_to: dateTime,
  is_package: z.boolean(),
  is_campaign: z.boolean(),
  parent_product_id: z.string().nullable(),
  parent_product_code: z.string().nullable(),
  title_code: z.string(),
  name: z.string(),
  description: z.string(),
  vat_code: z.string().optional(),
  customer_can_cancel: z.boolean(),
  products: z.array(MemberProduct),
  price_periods: z.array(PricePeriod),
  tags: z.array(Tag),
});
/** A product, package or campaign. */
export type Product = z.infer<typeof Product>;

/** A payment period as read from endpoint 3; `details` (the `payment_option_details` it was set with) only for `psp`. */
export const PaymentPeriod = z.object({
  id: z.string(),
  payment_method: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  iteration_type: z.string(),
  iteration_length: z.number().int(),
  price: z.number(),
  // Read leniently, like every answer: the same fields as the request's, not its rules.
  details: z.object({ type: z.string(), name: z.string() }).optional(),
});
/** A payment period as read from endpoint 3. */
export type PaymentPeriod = z.infer<typeof PaymentPeriod>;

/** A product sharing option (endpoint 15); texts are null when not shareable. */
export const ProductSharingOption = z.object({
  shareable: z.boolean(),
  limit: z.number().int(),
  sharing_text: z.string().nullable(),
  sharing_title: z.string().nullable(),
  received_product_text: z.string().nullable(),
  received_product_title: z.string().nullable(),
});
/** A product sharing option. */
export type ProductSharingOption = z.infer<typeof ProductSharingOption>;

// ---------------------------------------------------------------- 2. get products

/**
 * Endpoint 2's `tags`: names of letters and digits, separated by a comma and/or white space. The
 * spec writes the rule `/^([a-zA-Z0-9]+,?\s*)+$/`, which backtracks exponentially on a text that
 * almost matches; this pattern accepts exactly the same texts in linear time (each character has
 * one way to match: a name, or the separator after it).
 */
const TAGS_PATTERN = /^[a-zA-Z0-9]+(?:(?:,\s*|\s+)[a-zA-Z0-9]+)*(?:,\s*|\s+)?$/;
/** The message of a `tags` value that breaks the rule, in the spec's words. */
const TAGS_RULE = 'Parameter must match format (/^([a-zA-Z0-9]+,?\\s*)+$/)';

/** Query of endpoint 2, `GET /external/api/v1/products`; every parameter is optional, `id` and `product_code` not together. */
export const GetProductsQuery = atMostOne(
  z.strictObject({
    id: id.optional(),
    product_code: productCode.optional(),
    product_type: z.enum(['packages', 'campaigns', 'products']).optional(),
    title_code: z.string().min(1).max(15).regex(CODE_PATTERN).optional(),
    // The length is checked first and stops the rest: no pattern ever runs on a longer text.
    tags: z.string().min(1, { abort: true }).max(100, { abort: true }).regex(TAGS_PATTERN, TAGS_RULE).optional(),
    include_inactive: queryBoolean.optional(),
  }),
  ['id', 'product_code'],
);
/** Query of endpoint 2. */
export type GetProductsQuery = z.input<typeof GetProductsQuery>;

/** Response of endpoint 2. */
export const GetProductsResponse = z.object({ items: z.array(Product) });
/** Response of endpoint 2. */
export type GetProductsResponse = z.infer<typeof GetProductsResponse>;

// ---------------------------------------------------------------- 3. payment periods

/**
 * Query of endpoint 3: `product_id` or `product_code`, exactly one. The spec's samples send the
 * id as `id`; the platform accepts that spelling as an alias of `product_id` (the SDK sends `product_id`).
 */
export const GetPaymentPeriodsQuery = exactlyOne(
  z.strictObject({
    product_id: id.optional(),
    id: id
      .optional()
      .describe(
        "The spec's samples send product_id as id: an alias of product_id. Exactly one of product_id, id or product_code",
      ),
    product_code: productCode.optional(),
  }),
  ['product_id', 'id', 'product_code'],
  { label: 'product_id or product_code' },
);
/** Query of endpoint 3. */
export type GetPaymentPeriodsQuery = z.input<typeof GetPaymentPeriodsQuery>;

/** Response of endpoint 3. */
export const GetPaymentPeriodsResponse = z.object({ items: z.array(PaymentPeriod) });
/** Response of endpoint 3. */
export type GetPaymentPeriodsResponse = z.infer<typeof GetPaymentPeriodsResponse>;

// ---------------------------------------------------------------- 15. product sharing

/** Query of endpoint 15: `id` or `code` (a product id or product code), exactly one. */
export const GetProductSharingQuery = exactlyOne(z.strictObject({ id: id.optional(), code: productCode.optional() }), [
  'id',
  'code',
]);
/** Query of endpoint 15. */
export type GetProductSharingQuery = z.input<typeof GetProductSharingQuery>;

/** Response of endpoint 15: the options as an array under `item`. */
export const GetProductSharingResponse = z.object({ item: z.array(ProductSharingOption) });
/** Response of endpoint 15. */
export type GetProductSharingResponse = z.infer<typeof GetProductSharingResponse>;
