import * as z from 'zod';
import { CODE_PATTERN, dateTime, id } from './common.js';

// ---------------------------------------------------------------- 9. order validation

/**
 * Query of endpoint 9, `GET /external/api/v2/order_validation`: the package's `product_code` and
 * exactly one of `account_id`, `date_of_birth`, `ssn`.
 */
export const OrderValidationQuery = z
  .strictObject({
    product_code: z.string().min(1).max(50).regex(CODE_PATTERN),
    account_id: id.optional(),
    date_of_birth: dateTime.optional(),
    ssn: z.string().min(1).max(50).optional(),
  })
  .check((ctx) => {
    const given = (['account_id', 'date_of_birth', 'ssn'] as const).filter((k) => ctx.value[k] !== undefined);
    if (given.length === 0) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['account_id'],
        message: 'One of account_id, date_of_birth or ssn is required',
      });
    } else if (given.length > 1) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: [given[1] as string],
        message: 'Only one of account_id, date_of_birth or ssn may be given',
      });
    }
  });
/** Query of endpoint 9. */
export type OrderValidationQuery = z.input<typeof OrderValidationQuery>;

/** Order validation result: a refusal is `purchase_allowed: false` with a `reason` and a `message`. */
export const OrderValidationResult = z.looseObject({
  purchase_allowed: z.boolean(),
  reason: z.string().nullable(),
  message: z.string().nullable(),
  fallback_package_code: z.string().nullable(),
});
/** Order validation result. */
export type OrderValidationResult = z.infer<typeof OrderValidationResult>;

/** Response of endpoint 9. */
export const OrderValidationResponse = z.looseObject({ item: OrderValidationResult });
/** Response of endpoint 9. */
export type OrderValidationResponse = z.infer<typeof OrderValidationResponse>;
