import * as z from 'zod';
import { emailAddress, id } from './common.js';

// ---------------------------------------------------------------- 5. transfer subscription

/** Request body of endpoint 5, `PUT /external/api/v1/subscription/transfer_subscription`; all required. */
export const TransferSubscriptionRequest = z.strictObject({
  source_account_id: id,
  /** The user-product to move. */
  subscription_id: id,
  /** The target account's e-mail address (an invalid one is `400 invalid_parameter`). */
  target_account_email: emailAddress,
});
/** Request body of endpoint 5. */
export type TransferSubscriptionRequest = z.input<typeof TransferSubscriptionRequest>;
