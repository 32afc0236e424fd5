import * as z from 'zod';
import { id, queryBoolean } from './common.js';

/** A reason a customer may give for cancelling (spec: "Cancellation reason"). */
export const CancellationReason = z.object({
  index: z.number().int(),
  id: z.string(),
  name: z.string(),
  code: z.string(),
  integration_code: z.string(),
  visible_to_end_customer: z.boolean(),
  internal: z.boolean(),
});
/** A cancellation reason. */
export type CancellationReason = z.infer<typeof CancellationReason>;

// ---------------------------------------------------------------- 14. get cancellation reason

/** Query of endpoint 14, `GET /external/api/v1/cancellation_reason`; every parameter optional. */
export const GetCancellationReasonQuery = z.strictObject({
  id: id.optional(),
  include_internal: queryBoolean.optional(),
  visible_to_end_customer: queryBoolean.optional(),
});
/** Query of endpoint 14. */
export type GetCancellationReasonQuery = z.input<typeof GetCancellationReasonQuery>;

/** Response of endpoint 14 with `id`: that reason. */
export const CancellationReasonResponse = z.object({ item: CancellationReason });
/** Response of endpoint 14 with `id`. */
export type CancellationReasonResponse = z.infer<typeof CancellationReasonResponse>;

/** Response of endpoint 14 without `id`: the reasons, ordered by `index`. */
export const CancellationReasonsResponse = z.object({ items: z.array(CancellationReason) });
/** Response of endpoint 14 without `id`. */
export type CancellationReasonsResponse = z.infer<typeof CancellationReasonsResponse>;

/** Response of endpoint 14: `{ item }` with `id`, `{ items }` without. */
export const GetCancellationReasonResponse = z.union([CancellationReasonResponse, CancellationReasonsResponse]);
/** Response of endpoint 14. */
export type GetCancellationReasonResponse = z.infer<typeof GetCancellationReasonResponse>;
