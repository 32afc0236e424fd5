import * as z from 'zod';
import { exactlyOne } from './common.js';

/**
 * Why a user may not be offered a campaign (endpoints 6 and 7): the reason codes this platform
 * answers (docs/assumptions.md). The spec gives `not_eligible` as an example and leaves the rest
 * open, so endpoint 6's answer reads the code as any text, typed {@link NotEligibleCode} or one this
 * version does not know.
 */
export const NotEligibleCode = z.enum([
  'not_recurring',
  'not_platform_provisioned',
  'not_active',
  'already_on_campaign',
  'not_eligible',
]);
/** A reason code of a user who may not be offered a campaign. */
export type NotEligibleCode = z.infer<typeof NotEligibleCode>;

/** A retention campaign offered to a user (spec: "Retention campaign item"). */
export const RetentionCampaignItem = z.object({
  id: z.string(),
  /** The campaign's product code. */
  code: z.string(),
  name: z.string(),
  description: z.string(),
  /** The product codes the campaign gives access to. */
  products: z.array(z.string()),
});
/** A retention campaign offered to a user. */
export type RetentionCampaignItem = z.infer<typeof RetentionCampaignItem>;

/**
 * The parameters of endpoints 6 and 7: exactly one of `user_product_id` and `order_id`, each up to
 * 1024 characters. The user is the token's.
 */
export const RetentionRequest = exactlyOne(
  z.strictObject({
    user_product_id: z.string().min(1).max(1024).optional(),
    order_id: z.string().min(1).max(1024).optional(),
  }),
  ['user_product_id', 'order_id'],
);
/** The parameters of endpoints 6 and 7. */
export type RetentionRequest = z.input<typeof RetentionRequest>;

// ---------------------------------------------------------------- 6. eligible for campaign

/** Endpoint 6 when the user may be offered a campaign: the campaign. */
export const EligibleAnswer = z.object({ item: RetentionCampaignItem });
/** Endpoint 6 when the user may be offered the campaign. */
export type EligibleAnswer = z.infer<typeof EligibleAnswer>;
/** Endpoint 6 when the user is not eligible: a short reason `code` (e.g. `not_eligible`) and a readable `message`. */
export const NotEligibleAnswer = z.object({
  code: z.string() as z.ZodType<NotEligibleCode | (string & {})>,
  message: z.string(),
});
/** Endpoint 6 when the user may not: the reason code and message. */
export type NotEligibleAnswer = z.infer<typeof NotEligibleAnswer>;

/**
 * Response of endpoint 6, `GET /external/api/v1/me_retention/eligible_for_campaign` (parameters in a
 * JSON body): both answers are 200.
 */
export const EligibleForCampaignResponse = z.union([EligibleAnswer, NotEligibleAnswer]);
/** Response of endpoint 6. */
export type EligibleForCampaignResponse = z.infer<typeof EligibleForCampaignResponse>;

// ---------------------------------------------------------------- 7. subscribe to campaign

/** Response of endpoint 7, `PUT /external/api/v1/me_retention/subscribe_to_campaign`: the campaign applied. */
export const SubscribeToCampaignResponse = z.object({ item: RetentionCampaignItem });
/** Response of endpoint 7. */
export type SubscribeToCampaignResponse = z.infer<typeof SubscribeToCampaignResponse>;
