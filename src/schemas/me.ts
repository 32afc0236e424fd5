import * as z from 'zod';
import { id } from './common.js';

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
