import * as z from 'zod';
import { compareInstants } from '../instants.js';
import { atLeastOne, givenDateTime, id, type JsonSchemaRule, productCode, withRule } from './common.js';
import { SubscriptionType } from './products.js';

/**
 * The states of a user-product (spec: States and transitions, User-product): `activated`,
 * `deactivated`, and `cancelled` (cancelled by the customer, running until `valid_to`). The spec
 * names the cancelled condition but not its value, nor every state: answers read the state as any
 * text, typed {@link UserProductState} or one this version does not know.
 */
export const UserProductState = z.enum(['activated', 'deactivated', 'cancelled']);
/** A state of a user-product. */
export type UserProductState = z.infer<typeof UserProductState>;

/** The states a user-product may be set to (endpoint 12); `cancelled` is not settable. */
export const SettableUserProductState = UserProductState.exclude(['cancelled']);
/** The states endpoint 12 may set: `activated` or `deactivated`. */
export type SettableUserProductState = z.infer<typeof SettableUserProductState>;

/**
 * A validity window given whole must end after it starts (`valid_to`, as the platform words it);
 * endpoint 12 given one end only is checked against the other by the platform.
 */
function windowEndsAfterStart(ctx: z.core.ParsePayload<{ valid_from?: string; valid_to?: string }>): void {
  const { valid_from: from, valid_to: to } = ctx.value;
  if (from !== undefined && to !== undefined && compareInstants(to, from) <= 0)
    ctx.issues.push({
      code: 'custom',
      input: to,
      path: ['valid_to'],
      message: 'Parameter must be later than valid_from',
    });
}

/**
 * `schema` with the window's rule: checked ({@link windowEndsAfterStart}), and said in its JSON
 * Schema's description after the rules it already says, as every rule checked in code is.
 */
function withWindowRule<S extends z.ZodType<{ valid_from?: string; valid_to?: string }>>(
  schema: S,
  sentence: string,
): S {
  const rule = schema.meta() as JsonSchemaRule | undefined;
  return withRule(schema.check(windowEndsAfterStart), {
    ...rule,
    description: rule ? `${rule.description}. ${sentence}` : sentence,
  });
}

// ---------------------------------------------------------------- 12. update user-product

/**
 * Request body of endpoint 12, `PUT /external/api/v1/userproducts`: the account, the user-product
 * (`product_id`) and at least one change.
 */
export const UpdateUserProductRequest = withWindowRule(
  atLeastOne(
    z.strictObject({
      account_id: id,
      /** The user-product to update. */
      product_id: id,
      subscription_type: SubscriptionType.optional(),
      state: SettableUserProductState.optional(),
      valid_from: givenDateTime.optional(),
      valid_to: givenDateTime.optional(),
    }),
    ['subscription_type', 'state', 'valid_from', 'valid_to'],
  ),
  'Given both, valid_to must be later than valid_from, compared as instants to the fraction each gives; given one, the platform compares it with the other the user-product holds (400 invalid_parameter, valid_to)',
);
/** Request body of endpoint 12. */
export type UpdateUserProductRequest = z.input<typeof UpdateUserProductRequest>;

// ---------------------------------------------------------------- 13. provision user-product

/** Request body of endpoint 13, `POST /external/api/v1/userproducts`; all required. */
export const ProvisionUserProductRequest = withWindowRule(
  z.strictObject({
    account_id: id,
    /** The package or campaign. */
    package_code: productCode,
    subscription_type: SubscriptionType,
    valid_from: givenDateTime,
    valid_to: givenDateTime,
  }),
  'valid_to must be later than valid_from, compared as instants to the fraction each gives',
);
/** Request body of endpoint 13. */
export type ProvisionUserProductRequest = z.input<typeof ProvisionUserProductRequest>;
