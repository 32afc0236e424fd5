/** Prices of packages and campaigns: endpoint 1's request, its periods and their rules. */
import * as z from 'zod';
import { withRule } from './common.js';
import { MAX_PRICE } from './price-bound.js';
import { PaymentOption, PeriodType, SubscriptionType } from './products.js';

// ---------------------------------------------------------------- 1. update prices

/**
 * The most characters of a free text endpoint 1 keeps (a detail line's `name`, a payment method's
 * `type` and `name`): the spec gives them no size, and the platform copies them into every
 * purchase's payment profile, so they are bounded as the other names of the spec are (100).
 */
const MAX_PRICE_TEXT = 100;

/** The most lines of one period's `details`: the spec gives no count; a price is a few lines. */
const MAX_PRICE_DETAILS = 100;

/** A price as endpoint 1 takes it: a number from 0 to 1,000,000,000,000 (see `MAX_PRICE`). */
const price = z.number().nonnegative().max(MAX_PRICE);

/**
 * One line of the complex price model as endpoint 1 takes it: a `name` of 1 to 100 characters, a
 * `price` of 0 to 1,000,000,000,000 (as a period's simple `price`) and a `vat_code` that is a
 * non-negative integer.
 */
export const PriceDetailInput = z.strictObject({
  name: z.string().min(1).max(MAX_PRICE_TEXT),
  price,
  vat_code: z.number().int().nonnegative(),
});
/** A price detail as endpoint 1 takes it. */
export type PriceDetailInput = z.input<typeof PriceDetailInput>;

/** `payment_option_details`: required when `payment_option` is `psp`; its `type` and `name` are required, 1 to 100 characters. */
export const PaymentOptionDetails = z.strictObject({
  type: z.string().min(1).max(MAX_PRICE_TEXT),
  name: z.string().min(1).max(MAX_PRICE_TEXT),
});
/** A payment option’s type and name. */
export type PaymentOptionDetails = z.infer<typeof PaymentOptionDetails>;

/**
 * One period of an update-prices request (endpoint 1): `payment_option_details` with `psp` and only
 * then, `price` unless `details` are given.
 */
const PricePeriodFields = z
  .strictObject({
    subscription_type: SubscriptionType,
    payment_option: PaymentOption,
    payment_option_details: PaymentOptionDetails.optional(),
    type: PeriodType,
    length: z.number().int().positive(),
    monthly_payments: z.boolean().optional(),
    price: price.optional(),
    details: z.array(PriceDetailInput).min(1).max(MAX_PRICE_DETAILS).optional(),
  })
  .check((ctx) => {
    const period = ctx.value;
    if (period.payment_option === 'psp' && period.payment_option_details === undefined) {
      ctx.issues.push({
        code: 'custom',
        input: period,
        path: ['payment_option_details'],
        message: 'Parameter is required when payment_option is psp',
      });
    }
    if (period.payment_option !== 'psp' && period.payment_option_details !== undefined) {
      ctx.issues.push({
        code: 'custom',
        input: period,
        path: ['payment_option_details'],
        message: 'Parameter is allowed only when payment_option is psp',
      });
    }
    if (period.details !== undefined && period.details.reduce((sum, d) => sum + d.price, 0) > MAX_PRICE) {
      ctx.issues.push({
        code: 'custom',
        input: period.details,
        path: ['details'],
        message: `Parameter must hold prices that sum to at most ${MAX_PRICE}`,
      });
    }
    if (period.price === undefined && period.details === undefined) {
      ctx.issues.push({
        code: 'custom',
        input: period,
        path: ['price'],
        message: 'Parameter is required unless details are given',
      });
    }
  });
/** One period of an update-prices request (endpoint 1), its rules said in its JSON Schema too. */
export const PricePeriodInput = withRule(PricePeriodFields, {
  description:
    'payment_option_details is required when payment_option is psp, and refused with any other payment option. price is required unless details are given. The prices of details sum to at most 1000000000000',
  if: { properties: { payment_option: { const: 'psp' } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, a plain object never awaited.
  then: { required: ['payment_option_details'] },
  else: { properties: { payment_option_details: false } },
  anyOf: [{ required: ['price'] }, { required: ['details'] }],
});
/** One period of an update-prices request. */
export type PricePeriodInput = z.input<typeof PricePeriodInput>;

/**
 * Request body of endpoint 1, `POST /external/api/v1/prices`: at most one period per payment
 * option. The platform's rules by the product and the organisation are said in its description.
 */
export const UpdatePricesRequest = withRule(
  z
    .strictObject({
      package_integration_code: z.string().min(1).max(50),
      price_periods: z.array(PricePeriodInput).min(1),
    })
    .check((ctx) => {
      const seen = new Set<string>();
      ctx.value.price_periods.forEach((period, at) => {
        if (seen.has(period.payment_option)) {
          ctx.issues.push({
            code: 'custom',
            input: period,
            path: ['price_periods', at, 'payment_option'],
            message: 'At most one period per payment option',
          });
        }
        seen.add(period.payment_option);
      });
    }),
  {
    // JSON Schema cannot say "unique by one member", nor what the package and the organisation decide: sentences alone.
    description:
      'At most one period per payment_option. By the package and the organisation, the platform also refuses (400 invalid_parameter): a period of a campaign without monthly_payments; in an organisation with the simple price model, a period with details or without price; in one with the complex model, a period without details',
  },
);
/** Request body of endpoint 1. */
export type UpdatePricesRequest = z.input<typeof UpdatePricesRequest>;
