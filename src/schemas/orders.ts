import * as z from 'zod';
import { exactlyOne, givenDateTime, id, productCode } from './common.js';

// ---------------------------------------------------------------- 9. order validation

/**
 * Query of endpoint 9, `GET /external/api/v2/order_validation`: the package's `product_code` and
 * exactly one of `account_id`, `date_of_birth`, `ssn`.
 */
export const OrderValidationQuery = exactlyOne(
  z.strictObject({
    product_code: productCode,
    account_id: id.optional(),
    date_of_birth: givenDateTime.optional(),
    ssn: z.string().min(1).max(50).optional(),
  }),
  ['account_id', 'date_of_birth', 'ssn'],
);
/** Query of endpoint 9. */
export type OrderValidationQuery = z.input<typeof OrderValidationQuery>;

/** Order validation result: a refusal is `purchase_allowed: false` with a `reason` and a `message`. */
export const OrderValidationResult = z.object({
  purchase_allowed: z.boolean(),
  reason: z.string().nullable(),
  message: z.string().nullable(),
  fallback_package_code: z.string().nullable(),
});
/** Order validation result. */
export type OrderValidationResult = z.infer<typeof OrderValidationResult>;

/** Response of endpoint 9. */
export const OrderValidationResponse = z.object({ item: OrderValidationResult });
/** Response of endpoint 9. */
export type OrderValidationResponse = z.infer<typeof OrderValidationResponse>;

// ---------------------------------------------------------------- 17. validate gift receiver

/** A postal address field of the gift receiver: required, 1..100 characters. */
const addressLine = z.string().min(1).max(100);

/** The gift receiver's delivery address (spec: "Address object"); every field is required. */
export const Address = z.strictObject({
  first_name: addressLine,
  last_name: addressLine,
  street: addressLine,
  street_number: addressLine,
  zip_code: addressLine,
  city: addressLine,
  /** ISO 3166-1 alpha-2, e.g. `SE`. */
  country_code: z.string().regex(/^[A-Za-z]{2}$/),
});
/** The gift receiver's delivery address. */
export type Address = z.input<typeof Address>;

/** Request body of endpoint 17, `POST /external/api/v1/order/validate_gift_receiver`; all required. */
export const ValidateGiftReceiverRequest = z.strictObject({
  giver_account_id: id,
  /** The campaign's product code. */
  campaign_code: productCode,
  delivery_address: Address,
});
/** Request body of endpoint 17. */
export type ValidateGiftReceiverRequest = z.input<typeof ValidateGiftReceiverRequest>;

/** Response of endpoint 17: whether the receiver may get the gift (no conflicting subscription). */
export const ValidateGiftReceiverResponse = z.object({ item: z.object({ receiver_eligible: z.boolean() }) });
/** Response of endpoint 17. */
export type ValidateGiftReceiverResponse = z.infer<typeof ValidateGiftReceiverResponse>;
