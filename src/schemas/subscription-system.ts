import * as z from 'zod';
import { CODE_PATTERN, id, productCode } from './common.js';

/** An external subscription system's customer number: up to 50, `/^[a-zA-Z-_0-9]+$/` (endpoints 18, 19). */
export const customerNumber = z.string().min(1).max(50).regex(CODE_PATTERN);

// ---------------------------------------------------------------- 16. reactivate

/** Request body of endpoint 16, `PUT .../subscription_system/reactivate_platform_provisioned_subscription`. */
export const ReactivateSubscriptionRequest = z.strictObject({ account_id: id, user_product_id: id });
/** Request body of endpoint 16. */
export type ReactivateSubscriptionRequest = z.input<typeof ReactivateSubscriptionRequest>;

// ---------------------------------------------------------------- 18, 19. sync from the external system

/** Request body of endpoints 18 and 19: the external system's customer number. */
export const SyncCustomerRequest = z.strictObject({ customer_number: customerNumber });
/** Request body of endpoints 18 and 19. */
export type SyncCustomerRequest = z.input<typeof SyncCustomerRequest>;

// ---------------------------------------------------------------- 20. distribution information

/** Query of endpoint 20, `GET .../subscription_system/distribution_information`; all required. */
export const DistributionInformationQuery = z.strictObject({
  product_code: productCode,
  period_id: id,
  zip_code: z.string().min(1).max(100),
});
/** Query of endpoint 20. */
export type DistributionInformationQuery = z.input<typeof DistributionInformationQuery>;

/**
 * A price as the reference platform writes it (its state document holds it so): a decimal string
 * with two decimals, e.g. `"12.50"`.
 */
export const decimalPrice = z.string().regex(/^\d+\.\d{2}$/);

/**
 * A price as the spec types it, "decimal string", and the SDK reads it: digits, and optionally a
 * point and digits (`"12"`, `"12.5"`, `"12.500"`); not negative, no exponent, no sign.
 */
export const decimalString = z.string().regex(/^\d+(\.\d+)?$/);

/** Distribution information (spec: "Distribution information"). */
export const DistributionInformation = z.object({
  /** Delivery days, 1 = Monday .. 7 = Sunday. */
  distribution_days: z.array(z.number().int().min(1).max(7)),
  /** Excluding VAT. */
  distribution_price: decimalString,
  /** Including VAT. */
  distribution_price_with_tax: decimalString,
});
/** Distribution information. */
export type DistributionInformation = z.infer<typeof DistributionInformation>;

/** Response of endpoint 20. */
export const DistributionInformationResponse = z.object({ item: DistributionInformation });
/** Response of endpoint 20. */
export type DistributionInformationResponse = z.infer<typeof DistributionInformationResponse>;
