/**
 * The state document: the whole state of the reference platform as one JSON value. Seeds are
 * state documents, `GET /__admin/state` answers one and `PUT /__admin/state` takes one.
 * Resources sit under plural snake_case names; their fields are spelled as in the spec.
 */
import * as z from 'zod';
import { dateTime, givenDateTime, id } from '../../src/schemas/common.js';
import { HelpdeskMessageState, HelpdeskMessageType } from '../../src/schemas/helpdesk.js';
import { MAX_PRICE } from '../../src/schemas/price-bound.js';
import { PeriodType, PriceDetail, SubscriptionType } from '../../src/schemas/products.js';
import { SsoSessionStatus } from '../../src/schemas/sign-on.js';
import { decimalPrice } from '../../src/schemas/subscription-system.js';
import { UserProductState } from '../../src/schemas/user-products.js';
import { checkCollections, collection, lower } from './collection.js';
import { hashPassword, PASSWORD_HASH, passwordHashProblem } from './passwords.js';

const text = z.string();
const nonEmpty = z.string().min(1);

/** An organisation: the owner of clients, accounts and products, with its price model. */
const Organisation = z
  .strictObject({
    id,
    name: text,
    /** `simple`: a period has one `price`; `complex`: a period has price `details`. */
    price_model: z.enum(['simple', 'complex']),
    /**
     * SSO: the most logged-in sessions one account of this organisation may hold at once; absent,
     * the platform's `login.maxSessionsPerAccount` (CLI `--max-sessions-per-account`).
     */
    max_sessions_per_account: z.number().int().min(1).max(1000).optional(),
  })
  .meta({
    description:
      "Own clients, accounts and products. The price model decides `price` or `details` on periods (endpoint 1). `max_sessions_per_account` (1-1000) is the SSO session limit of the organisation's accounts; absent, the platform's `login.maxSessionsPerAccount`.",
  });

/** An API client: credentials, organisation, the scopes it may ask for, its provision service. */
const Client = z
  .strictObject({
    client_id: nonEmpty,
    client_secret: nonEmpty,
    organisation_id: id,
    scopes: z.array(nonEmpty),
    provision_service: z.string().nullable(),
    name: text.optional(),
    /**
     * The site's landing page for SSO identify: the browser is sent there with `t` (a session token)
     * and `r` (the return URL). None: identify refuses the client with an error page.
     */
    landing_url: z.url({ protocol: /^https?$/ }).optional(),
  })
  .meta({
    description:
      'API clients: the credentials of endpoints 21 and 23 and of the SSO service, the scopes a token may carry; `landing_url` is where SSO identify sends the browser.',
  });

/** A postal address of an account, as endpoint 24 reads it (in camelCase there). */
const AccountAddress = z.strictObject({ street: text, zip_code: text, city: text, country_code: text });

/** A date of birth: a calendar date (`1985-04-12`) or a date-time with offset. */
const dateOfBirth = z.union([z.iso.date(), dateTime]);

/** An account (an end customer) of an organisation. */
const Account = z
  .strictObject({
    id,
    organisation_id: id,
    email: text,
    first_name: text,
    last_name: text,
    customer_number: text,
    /** `active`; any other value (`inactive`, `login_disabled`, ...) gets no tokens, no tickets and no shop login. */
    status: nonEmpty,
    /** Endpoint 24's address; an account without one reads empty strings there. */
    address: AccountAddress.optional(),
    /**
     * The account's password in clear, only on the way in (a seed, `PUT /__admin/state`): it is
     * hashed on load and never kept. None and no `password_hash`: no password login.
     */
    password: nonEmpty.optional(),
    /**
     * The salted scrypt hash of the password (`scrypt$N$r$p$salt$hash`): all the state keeps. Its
     * parameters are checked on load (N a power of two, r and p bounded): a bad one never reaches a login.
     */
    password_hash: z
      .string()
      .regex(PASSWORD_HASH, 'Expected scrypt$N$r$p$salt$hash')
      .refine((hash) => !PASSWORD_HASH.test(hash) || passwordHashProblem(hash) === undefined, {
        error: (issue) => passwordHashProblem(String(issue.input)),
      })
      .optional(),
    /** Social security number: endpoint 9 finds the account by it. */
    ssn: nonEmpty.optional(),
    /** Endpoint 9's age check reads it. */
    date_of_birth: dateOfBirth.optional(),
    /** The helpdesk's embedded account shows it; an empty string when absent. */
    mobile_number: text.optional(),
    /** Whether the account's e-mail address is verified (the helpdesk's embedded account). */
    verified: z.boolean().default(false),
  })
  .meta({
    description:
      'End customers. Only `status: "active"` accounts get tokens, tickets, a shop login and an SSO login; `archived` accounts refuse change logs (endpoint 4) and provisioning (13). `password_hash` is a salted scrypt hash; a document may give `password` in clear instead, which is hashed on load and never kept or shown.',
  });

/** A price period as stored: the spec's read fields plus what endpoints 1 and 3 need. */
const StoredPricePeriod = z.strictObject({
  id,
  purchase_type: SubscriptionType,
  payment_option: nonEmpty,
  type: PeriodType,
  length: z.number().int().positive(),
  price: z.number().nonnegative().max(MAX_PRICE).optional().meta({ description: 'the simple price model' }),
  details: z
    .array(z.strictObject({ ...PriceDetail.shape, price: PriceDetail.shape.price.nonnegative().max(MAX_PRICE) }))
    .optional()
    .meta({ description: 'the complex price model' }),
  /** Only for `psp`: the payment method's type and name. */
  payment_option_details: z.strictObject({ type: text, name: text }).optional().meta({ description: 'for `psp`' }),
  enabled: z.boolean(),
  monthly_payments: z.boolean().optional(),
});

/** A product, package or campaign as stored: the spec's Product plus `organisation_id`. */
const StoredProduct = z
  .strictObject({
    id,
    organisation_id: id,
    created: dateTime,
    updated: dateTime,
    product_code: nonEmpty,
    integration_code: nonEmpty.optional(),
    valid_from: dateTime,
    valid_to: dateTime,
    is_package: z.boolean(),
    is_campaign: z.boolean(),
    parent_product_id: id.nullable(),
    parent_product_code: z.string().nullable(),
    title_code: text,
    name: text,
    description: text,
    vat_code: text.optional(),
    customer_can_cancel: z.boolean(),
    products: z.array(z.strictObject({ id, product_code: text, name: text, description: text })),
    price_periods: z.array(StoredPricePeriod),
    tags: z.array(z.strictObject({ name: text, type: text })),
    /** Endpoint 9 refuses a buyer younger than this (`too_young`); a campaign without one takes its package's. */
    minimum_age: z.number().int().positive().optional(),
    /** The package endpoint 9 offers instead when it refuses (`fallback_package_code`). */
    fallback_package_code: nonEmpty.optional(),
  })
  .meta({
    description:
      "Packages, campaigns and products: the spec's Product fields plus `organisation_id`, `minimum_age` and `fallback_package_code`.",
  });

/** The sharing option of a product (endpoint 15). */
const ProductSharing = z
  .strictObject({
    product_id: id,
    shareable: z.boolean(),
    limit: z.number().int().nonnegative(),
    sharing_text: z.string().nullable(),
    sharing_title: z.string().nullable(),
    received_product_text: z.string().nullable(),
    received_product_title: z.string().nullable(),
  })
  .meta({
    description: "Endpoint 15: the spec's Product sharing option fields, by `product_id`.",
  });

/** An issued access token with its refresh token. */
const AccessToken = z
  .strictObject({
    access_token: nonEmpty,
    refresh_token: nonEmpty,
    client_id: nonEmpty,
    scopes: z.array(nonEmpty),
    account_id: id.nullable().meta({ description: 'null: server to server' }),
    expires_at: dateTime,
    /** When the token (and its refresh token) was revoked: the API answers 401 `invalid_token`. */
    revoked_at: dateTime.nullable().default(null),
    /** When its refresh token was spent (a refresh token is usable once: it rotates). */
    refreshed_at: dateTime.nullable().default(null),
    /**
     * Until when its refresh token is usable (and, spent or revoked, kept so that its reuse is refused
     * as such); null: it does not expire (a document of an earlier version).
     */
    refresh_expires_at: dateTime
      .nullable()
      .default(null)
      .meta({ description: 'null: the refresh token does not expire' }),
    /**
     * The refresh family: every token refreshed from one grant shares it, so that a reused refresh
     * token or ticket revokes the whole chain (RFC 6749 section 10.5). Absent: the token alone.
     */
    family: nonEmpty.optional(),
  })
  .meta({
    description: 'Issued tokens. A record is dropped once both it and its refresh token have expired.',
  });

/** An authorization ticket: single use, short-lived, bound to its destination client (the platform's public documentation). */
const Ticket = z
  .strictObject({
    /** The ticket itself: 256 random bits, base64url. A credential. */
    ticket: nonEmpty,
    account_id: id,
    /** The destination client: only it may exchange (or present) the ticket. */
    client_id: nonEmpty.meta({ description: 'the client it is bound to' }),
    issued_at: dateTime,
    expires_at: dateTime,
    used_at: dateTime.nullable(),
    /** The access token its exchange (endpoint 23) issued: revoked when the ticket is presented again. */
    access_token: nonEmpty.nullable(),
    /** The SSO session its use logged in (endpoint 21): ended when the ticket is presented again. */
    sso_session: nonEmpty
      .optional()
      .meta({ description: 'the SSO session its use logged in (endpoint 21), ended should it be presented again' }),
    /** The ticket its use at endpoint 21 answered with: used up, and what it issued revoked, when this one is presented again. */
    issued_ticket: nonEmpty.optional().meta({
      description: 'the ticket its use at endpoint 21 answered with, used up should this one be presented again',
    }),
  })
  .meta({
    description: 'Authorization tickets. Dropped once expired, used or not.',
  });

/** One attempt on an SSO session, as its timeline records it. */
const SsoTimelineEntry = z.strictObject({
  at: dateTime,
  operation: nonEmpty,
  /** `loggedin`, `verified` (a logged-in session verified again), or the `err` code answered. */
  outcome: nonEmpty,
  ip_address: text,
  user_agent: text,
});

/** An SSO session (spec: States and transitions, SSO session). */
const SsoSession = z
  .strictObject({
    sid: nonEmpty,
    state: SsoSessionStatus,
    account_id: id.nullable(),
    /** The client the session was created for; its organisation's clients may use it. */
    client_id: nonEmpty.nullable(),
    created_at: dateTime,
    timeline: z.array(SsoTimelineEntry),
    /** When a sessionstatus last found it: a use, which its timeline does not record (a site asks on every page). */
    last_status_at: dateTime.optional().meta({ description: 'the last sessionstatus that found it' }),
  })
  .meta({
    description:
      'SSO sessions (endpoint 21). Only the latest 20 timeline entries are kept; a session that has ended (no operation on it for a day, sessionstatus included, or 30 days old) is absent at once to the SSO service, `GET /__admin/sso/sessions/{sid}` and `platform.sso.session`, and dropped from the document as the platform goes.',
  });

/**
 * A site registered for the return flow (spec: Return flow 6). `domain` is a host name matched
 * exactly (case-insensitive, ports ignored) against the return URL's.
 */
const TicketConfiguration = z
  .strictObject({
    domain: nonEmpty,
    client_id: nonEmpty,
    mode: z.enum(['ReturnUrl', 'SeparateTicketAuth']),
    /**
     * `SeparateTicketAuth` only: the site's auth endpoint, an absolute http(s) URL or a path
     * (`/auth/ticket`) taken on the return URL's origin (ports are dynamic in tests).
     */
    auth_endpoint: nonEmpty.nullable().meta({ description: 'URL or path; null for `ReturnUrl`' }),
    /**
     * The one port a ticket may be sent to on this domain (the scheme's default port when the
     * return URL names none). None: any port of the domain.
     */
    port: z.number().int().min(1).max(65535).optional().meta({ description: 'tickets go to that port only' }),
  })
  .check((ctx) => {
    const t = ctx.value;
    const needed = t.mode === 'SeparateTicketAuth';
    if (needed !== (t.auth_endpoint !== null) || (t.auth_endpoint !== null && !isEndpointUrl(t.auth_endpoint)))
      ctx.issues.push({
        code: 'custom',
        input: t.auth_endpoint,
        path: ['auth_endpoint'],
        message: needed
          ? 'Parameter must be an absolute http(s) URL or a path starting with /'
          : 'Parameter must be null unless the mode is SeparateTicketAuth',
      });
  })
  .meta({
    description:
      "What a site registers for the shop's return. Tickets travel only over https, or http to a loopback host (`docs/security.md`).",
  });

/** A marketplace of the shop (endpoint 25): what it sells and the client its tickets are bound to. */
const Marketplace = z
  .strictObject({
    group_id: nonEmpty,
    marketplace_id: nonEmpty,
    name: text,
    /** The shop's own client: tickets sent to this marketplace are bound to it. */
    client_id: nonEmpty.meta({ description: "the shop's client" }),
    /** The packages and campaigns on sale, by product code. */
    product_codes: z.array(nonEmpty),
  })
  .meta({
    description: "The shop's marketplaces (endpoint 25).",
  });

/** A user-product (subscription): what a purchase creates (the platform's public documentation lists the shape). */
const UserProduct = z
  .strictObject({
    id,
    account_id: id,
    product_id: id,
    product_code: nonEmpty,
    title_code: text,
    created: dateTime,
    updated: dateTime,
    valid_from: dateTime,
    valid_to: dateTime,
    /** The external provision service that controls it; null: controlled by the platform. */
    provision_service: z.string().nullable().meta({ description: 'null: controlled by the platform' }),
    subscription_type: SubscriptionType,
    /** `cancelled`: cancelled by the customer, running until `valid_to`. */
    state: UserProductState,
    has_pending_change_request: z.boolean(),
    external_start_date: dateTime.nullable(),
    payment_option: z.string().nullable(),
    period_id: id.nullable(),
    order_id: z.string().max(1024).nullable().meta({ description: 'names an order, or null' }),
    /** When the customer cancelled it (cancel product), and the reason given; null otherwise. */
    cancelled_at: dateTime.nullable().default(null),
    cancellation_reason_id: id.nullable().default(null),
    /** The retention offer applied to it (endpoint 7): it is not offered a second one. */
    retention_offer_id: id.nullable().default(null),
    /** The external subscription system's number of it, when endpoint 19 keeps it in step. */
    subscription_number: z
      .string()
      .nullable()
      .default(null)
      .meta({ description: "the external system's, for user-products it controls" }),
  })
  .meta({
    description:
      "Subscriptions: the shop's purchases and provisioning (endpoint 13) create them; endpoints 12, 5 and 16 change them.",
  });

/** A title (a publication) of an organisation (the titles API; products name it in `title_code`). */
const StoredTitle = z
  .strictObject({
    organisation_id: id,
    code: nonEmpty,
    name: text,
    image_url: z.url().nullable().default(null),
    merchant_image_url: z.url().nullable().default(null),
    url: z.url().nullable().default(null),
    /** A colour, `#rrggbb`. */
    rgb: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .nullable()
      .default(null)
      .meta({ description: '`#rrggbb`' }),
  })
  .meta({
    description:
      "The organisation's titles (publications), unique by code; products name them in `title_code` (the titles API, beyond the spec).",
  });

/**
 * An order: what a purchase (the shop) charged for a user-product. Provisioning (endpoint 13)
 * writes none: the external system that provisions bills its own customers.
 */
const Order = z
  .strictObject({
    /** Also the user-product's `order_id`. */
    id: z.string().min(1).max(1024).meta({ description: "the user-product's `order_id`, up to 1024 characters" }),
    account_id: id,
    user_product_id: id,
    created: dateTime,
    product_id: id,
    product_code: nonEmpty,
    period_id: id.nullable(),
    payment_option: z.string().nullable(),
    /** The price of one iteration of the period, as the shop charged it. */
    amount: z.number().nonnegative(),
  })
  .meta({
    description: 'What a purchase charged. Provisioning writes none. They move with their user-product (endpoint 5).',
  });

/**
 * A payment profile: how a user-product's recurring payments are made (a card through `psp`, a
 * credit card, a direct-debit mandate, an invoice address). A purchase with any payment option but
 * `free` writes one.
 */
const PaymentProfile = z
  .strictObject({
    id,
    account_id: id,
    user_product_id: id,
    created: dateTime,
    payment_option: nonEmpty,
    /** Only for `psp`: the payment method's type and name (a card scheme). */
    details: z.strictObject({ type: text, name: text }).nullable().meta({ description: 'for `psp`, else null' }),
    /** The payment period paid for (null when not known, as in a document of an earlier version). */
    period_id: id.nullable().default(null).meta({ description: 'the period paid for' }),
    /** What each iteration of the period charges (null when not known). */
    amount: z.number().nonnegative().nullable().default(null).meta({ description: 'what each iteration charges' }),
  })
  .meta({
    description:
      "How a user-product's payments are made; a purchase writes one for every payment option but `free`. They move with their user-product.",
  });

/** A category of change-log entries an organisation accepts (endpoint 4's available categories). */
const ChangeLogCategory = z
  .strictObject({
    organisation_id: id,
    category_type: nonEmpty,
    name: text,
  })
  .meta({
    description: 'The categories endpoint 4 accepts, per organisation (its available categories).',
  });

/** A change-log entry written to an account (endpoint 4). */
const AccountChangeLog = z
  .strictObject({
    id,
    account_id: id,
    category_type: nonEmpty,
    message: z.string().min(1).max(1024),
    requested_by: z.string().min(1).max(100),
    created_at: dateTime,
  })
  .meta({
    description: 'What endpoint 4 logged.',
  });

/** A comment on a helpdesk message: by the customer or an agent, in the order written. */
const HelpdeskComment = z.strictObject({ id, author_id: id, message: text, created_at: dateTime });

/**
 * A helpdesk message of an account (endpoints 8 and 11), or a template (endpoint 10, the same shape).
 * `account` and `assignee` are not stored: they are read from the accounts when answered.
 */
const HelpdeskMessage = z
  .strictObject({
    id,
    account_id: id,
    /** An account of the same organisation (an agent); null when unassigned. */
    assignee_id: id.nullable().meta({ description: 'an account (the one it is assigned to), or null' }),
    created_at: dateTime,
    updated_at: dateTime,
    resolved_at: dateTime.nullable(),
    heading: text,
    message: text,
    type: HelpdeskMessageType,
    identifier: text,
    /** Endpoint 8 lists the `pending` ones. */
    state: HelpdeskMessageState,
    /** How many times the same message was received (single reads show it). */
    occurrences: z.number().int().nonnegative(),
    comments: z.array(HelpdeskComment),
  })
  .meta({
    description: 'Endpoints 8 and 11. The embedded `account` and `assignee` are read from `accounts` when answered.',
  });

/** A helpdesk message template (endpoint 10): a helpdesk message's fields. */
const HelpdeskMessageTemplate = HelpdeskMessage.meta({ description: 'Endpoint 10.' });

/** A reason a customer may give for cancelling (endpoint 14), of an organisation. */
const CancellationReason = z
  .strictObject({
    id,
    organisation_id: id,
    index: z.number().int(),
    name: text,
    code: text,
    integration_code: text,
    visible_to_end_customer: z.boolean(),
    internal: z.boolean(),
  })
  .meta({
    description: 'Endpoint 14, and the reason of cancel product.',
  });

/**
 * A retention offer (endpoints 6 and 7): a user about to leave a subscription of `package_id` may be
 * offered the campaign `campaign_id` instead. `name` and `description` are the texts shown.
 */
const RetentionOffer = z
  .strictObject({
    id,
    organisation_id: id,
    package_id: id.meta({ description: 'the package left' }),
    campaign_id: id.meta({ description: 'the campaign offered' }),
    name: text,
    description: text,
  })
  .meta({
    description:
      'Endpoints 6 and 7: a subscription of the package, or of a campaign on it, may be offered the campaign.',
  });

/**
 * The most customers a platform's external subscription systems hold together. A request adds them
 * (`PUT /__admin/subscription-systems/{organisation_id}/customers/{customer_number}`), so they are
 * capped, and each one's size bounded, as every record a request adds is (`docs/security.md`): at
 * their largest, 1000 customers take 13 to 16 MB of memory. The count is the platform's, not a
 * system's: a document of 1 MiB can declare 4,000 systems. A customer replaced does not count again.
 */
export const MAX_EXTERNAL_CUSTOMERS = 1000;
/** The most subscriptions of one customer of an external system. */
const MAX_EXTERNAL_SUBSCRIPTIONS = 25;
/** A line of an external system's address: at most 100 characters, as the spec's Address object (endpoint 17) takes. */
const addressLine = text.max(100);
/**
 * A number or a code of the external system (a customer's, a subscription's, a product's): at most
 * 50 characters, the spec's rule for customer numbers (endpoints 18, 19) and product codes (2, 13, 20).
 */
const externalCode = nonEmpty.max(50);

/**
 * A postal address as the external subscription system keeps it (the spec's Address object). Its
 * members are the request's `Address` (`src/schemas/orders.ts`), but a system's record is read as
 * it is: a line may be empty and the country code any text, each at most 100 characters.
 */
const ExternalAddress = z.strictObject({
  first_name: addressLine,
  last_name: addressLine,
  street: addressLine,
  street_number: addressLine,
  zip_code: addressLine,
  city: addressLine,
  country_code: addressLine,
});

/** A subscription in the external system: of a product (by code), for a time, active or ended. */
const ExternalSubscription = z.strictObject({
  /** The external system's own number: a synced user-product keeps it (`subscription_number`). */
  subscription_number: externalCode,
  product_code: externalCode,
  subscription_type: SubscriptionType,
  valid_from: givenDateTime,
  valid_to: givenDateTime,
  state: z.enum(['active', 'ended']),
});

/** A customer of the external system, by its `customer_number` (an account's `customer_number`). */
export const ExternalCustomer = z.strictObject({
  customer_number: externalCode.meta({ description: "an account's" }),
  /** None: the external system has no address for the customer. */
  address: ExternalAddress.nullable(),
  /** Each `subscription_number` once: endpoint 19 matches a user-product by it. */
  subscriptions: z
    .array(ExternalSubscription)
    .max(MAX_EXTERNAL_SUBSCRIPTIONS)
    .check((ctx) => eachOnce(ctx, (s) => s.subscription_number, 'subscription_number'))
    .meta({ description: `each subscription_number once, at most ${MAX_EXTERNAL_SUBSCRIPTIONS}` }),
});

/** What a platform's external subscription systems hold, all of them together, that requests add or replace. */
interface SystemContents {
  customers: readonly unknown[];
  distribution: { zones: readonly { zip_codes: readonly unknown[] }[]; prices: readonly unknown[] };
}

/**
 * The most of what the admin API adds to the external subscription systems, all of them together
 * (a document of 1 MiB can declare 4,000 systems, each of which a request may fill up to the body
 * limit): each with how it is counted in one system, and where a document names it.
 */
export const SYSTEM_CAPS = [
  {
    what: 'customers',
    max: MAX_EXTERNAL_CUSTOMERS,
    path: ['customers'],
    count: (s: SystemContents) => s.customers.length,
  },
  {
    what: 'distribution zip codes',
    max: 10_000,
    path: ['distribution', 'zones'],
    count: (s: SystemContents) => s.distribution.zones.reduce((n, zone) => n + zone.zip_codes.length, 0),
  },
  {
    what: 'distribution prices',
    max: 1_000,
    path: ['distribution', 'prices'],
    count: (s: SystemContents) => s.distribution.prices.length,
  },
] as const;

/** The customers of a platform's external subscription systems, all of them together. */
export function externalCustomerCount(systems: readonly { customers: readonly unknown[] }[]): number {
  let count = 0;
  for (const system of systems) count += system.customers.length;
  return count;
}

/**
 * An issue for each element of a list whose key an earlier element has: the external system's
 * numbers name one thing each (endpoints 18 and 19 find a customer, and match a user-product, by them).
 */
function eachOnce<T>(ctx: z.core.ParsePayload<T[]>, keyOf: (element: T) => string, member: string): void {
  const seen = new Set<string>();
  ctx.value.forEach((element, i) => {
    const key = keyOf(element);
    if (seen.has(key))
      ctx.issues.push({ code: 'custom', input: key, path: [i, member], message: 'Parameter must not be repeated' });
    seen.add(key);
  });
}

/** Paper distribution (endpoint 20): the days the papers reach some zip codes. */
const DistributionZone = z.strictObject({
  /** At most 100 characters, as endpoint 20 takes a zip code. */
  zip_codes: z.array(nonEmpty.max(100)),
  /** 1 = Monday .. 7 = Sunday, each once. */
  distribution_days: z.array(z.number().int().min(1).max(7)),
});

/** The price of distribution for a product and period: decimal strings, without and with VAT. */
const DistributionPrice = z.strictObject({
  product_code: externalCode,
  period_id: id,
  distribution_price: decimalPrice.max(20).meta({ description: 'a decimal string of at most 20 characters' }),
  distribution_price_with_tax: decimalPrice.max(20).meta({ description: 'a decimal string of at most 20 characters' }),
});

/**
 * Endpoint 20 answers one set of days and one price: a day given twice in a zone, a zip code in two
 * zones (compared without spaces, as the endpoint compares them) or two prices of one product and
 * period would answer a day twice, or whichever came first.
 */
function distributionOnce(
  ctx: z.core.ParsePayload<{
    zones: { zip_codes: string[]; distribution_days: number[] }[];
    prices: { product_code: string; period_id: string }[];
  }>,
): void {
  const repeated = (input: unknown, path: PropertyKey[], message: string) =>
    ctx.issues.push({ code: 'custom', input, path, message });
  const zips = new Set<string>();
  ctx.value.zones.forEach((zone, i) => {
    const days = new Set<number>();
    zone.distribution_days.forEach((day, j) => {
      if (days.has(day)) repeated(day, ['zones', i, 'distribution_days', j], 'Parameter must not be repeated');
      days.add(day);
    });
    zone.zip_codes.forEach((zip, j) => {
      const key = zip.replace(/\s+/g, '');
      if (zips.has(key)) repeated(zip, ['zones', i, 'zip_codes', j], 'The zip code is in another zone already');
      zips.add(key);
    });
  });
  const priced = new Set<string>();
  ctx.value.prices.forEach((price, p) => {
    const key = `${price.product_code} ${price.period_id.toLowerCase()}`;
    if (priced.has(key)) repeated(price, ['prices', p], 'A price of this product and period is given already');
    priced.add(key);
  });
}

/**
 * The external subscription system of an organisation, simulated: its customers (with addresses and
 * subscriptions) and its distribution data. Endpoints 17-20 read it; 18 and 19 copy from it.
 */
const SubscriptionSystem = z
  .strictObject({
    organisation_id: id.meta({ description: 'one entry per organisation with an integration' }),
    /** The vendor integration's name. */
    vendor: nonEmpty,
    /** The provision service of the user-products it controls (endpoint 19 creates and changes those only). */
    provision_service: nonEmpty.meta({ description: 'of the user-products it controls' }),
    /** Only one vendor integration supports endpoint 20. */
    supports_distribution_information: z.boolean(),
    customers: z
      .array(ExternalCustomer)
      .check((ctx) => eachOnce(ctx, (c) => c.customer_number, 'customer_number'))
      .meta({
        description: `each customer_number once; at most ${MAX_EXTERNAL_CUSTOMERS} in all the systems together`,
      }),
    distribution: z
      .strictObject({ zones: z.array(DistributionZone), prices: z.array(DistributionPrice) })
      .check(distributionOnce)
      .meta({
        description:
          'each day once in a zone, each zip code in one zone (spaces aside), one price per product and period',
      }),
  })
  .meta({
    description:
      'The simulated external subscription system of endpoints 17-20. ' +
      'Read it with `GET /__admin/subscription-systems/{organisation_id}` (`platform.subscriptionSystems.get`; 404 without an integration). ' +
      'Change a customer between calls with `PUT` (body: `address`, `subscriptions`) or `DELETE /__admin/subscription-systems/{organisation_id}/customers/{customer_number}` (`setCustomer`, `removeCustomer`), ' +
      'and the distribution with `PATCH /__admin/subscription-systems/{organisation_id}` (body: `supports_distribution_information` and/or `distribution`, replaced whole; a key left out stays; `setDistribution`). ' +
      'Each answers 204, or 404 without an integration (or for an unknown customer), or 400 naming the field. ' +
      `A customer's numbers and product codes are at most 50 characters, its address lines 100, its date-times 35; a new customer beyond ${MAX_EXTERNAL_CUSTOMERS} in the platform's systems is refused (400, field unspecified_field; one replaced is not). ` +
      "A distribution holds zip codes of at most 100 characters, product codes of 50 and prices of 20; at most 10,000 zip codes and 1,000 prices in the platform's systems together (400 naming `distribution.zones` or `distribution.prices`). " +
      '`platform.subscriptionSystems.syncInFlight(organisation_id)` tells whether a sync of endpoint 19 is under way.',
  });

/** The SSO audience constant of a state document that names none. */
const DEFAULT_SSO_AUDIENCE = 'sso.platform.test';

/**
 * Every collection of the state document, declared once: its record schema, its indexes (the first
 * is the primary key) and the fields that name records of other collections. The document's schema
 * and checks, and the platform's live indexes, are built from this.
 */
export const COLLECTIONS = {
  organisations: collection(Organisation, (k) => ({ id: k.unique(['id', lower]) })),
  clients: collection(Client, (k) => ({ id: k.unique('client_id') }), { organisation_id: 'organisations' }),
  accounts: collection(
    Account,
    (k) => ({
      id: k.unique(['id', lower]),
      email: k.unique(['organisation_id', lower], ['email', lower]),
      ssn: k.unique(['organisation_id', lower], 'ssn'),
      customerNumber: k.unique(['organisation_id', lower], 'customer_number'),
    }),
    { organisation_id: 'organisations' },
  ),
  products: collection(
    StoredProduct,
    (k) => ({
      id: k.unique(['id', lower]),
      code: k.unique(['organisation_id', lower], 'product_code'),
      integrationCode: k.unique(['organisation_id', lower], 'integration_code'),
      organisation: k.grouped(['organisation_id', lower]),
    }),
    { organisation_id: 'organisations' },
    // Read on every page of a site, written by endpoint 1 alone: get products keeps each product's JSON by its record.
    { immutable: true },
  ),
  product_sharing: collection(ProductSharing, (k) => ({ product: k.unique(['product_id', lower]) }), {
    product_id: 'products',
  }),
  access_tokens: collection(
    AccessToken,
    (k) => ({
      token: k.unique('access_token'),
      refreshToken: k.unique('refresh_token'),
      // Every token refreshed from one grant: a reused ticket or refresh token revokes them all.
      family: k.grouped((t) => t.family ?? t.access_token),
    }),
    { client_id: 'clients', account_id: 'accounts' },
  ),
  tickets: collection(Ticket, (k) => ({ ticket: k.unique('ticket') }), {
    client_id: 'clients',
    account_id: 'accounts',
  }),
  sso_sessions: collection(SsoSession, (k) => ({ sid: k.unique('sid') }), {
    client_id: 'clients',
    account_id: 'accounts',
  }),
  ticket_configurations: collection(TicketConfiguration, (k) => ({ domain: k.unique(['domain', lower]) }), {
    client_id: 'clients',
  }),
  marketplaces: collection(Marketplace, (k) => ({ id: k.unique('group_id', 'marketplace_id') }), {
    client_id: 'clients',
  }),
  user_products: collection(
    UserProduct,
    (k) => ({ id: k.unique(['id', lower]), account: k.grouped(['account_id', lower]) }),
    {
      account_id: 'accounts',
      product_id: 'products',
      order_id: 'orders',
      cancellation_reason_id: 'cancellation_reasons',
      retention_offer_id: 'retention_offers',
    },
  ),
  orders: collection(Order, (k) => ({ id: k.unique('id'), userProduct: k.grouped(['user_product_id', lower]) }), {
    account_id: 'accounts',
    user_product_id: 'user_products',
    product_id: 'products',
  }),
  payment_profiles: collection(
    PaymentProfile,
    (k) => ({ id: k.unique(['id', lower]), userProduct: k.grouped(['user_product_id', lower]) }),
    { account_id: 'accounts', user_product_id: 'user_products' },
  ),
  change_log_categories: collection(
    ChangeLogCategory,
    (k) => ({
      type: k.unique(['organisation_id', lower], 'category_type'),
      organisation: k.grouped(['organisation_id', lower]),
    }),
    { organisation_id: 'organisations' },
  ),
  // No index by account: nothing lists an account's entries, and endpoint 4 writes up to 1000 at a time.
  account_change_logs: collection(AccountChangeLog, (k) => ({ id: k.unique(['id', lower]) }), {
    account_id: 'accounts',
  }),
  helpdesk_messages: collection(
    HelpdeskMessage,
    (k) => ({ id: k.unique(['id', lower]), account: k.grouped(['account_id', lower]) }),
    { account_id: 'accounts', assignee_id: 'accounts' },
  ),
  helpdesk_message_templates: collection(HelpdeskMessageTemplate, (k) => ({ id: k.unique(['id', lower]) }), {
    account_id: 'accounts',
    assignee_id: 'accounts',
  }),
  cancellation_reasons: collection(
    CancellationReason,
    (k) => ({ id: k.unique(['id', lower]), organisation: k.grouped(['organisation_id', lower]) }),
    { organisation_id: 'organisations' },
  ),
  titles: collection(
    StoredTitle,
    (k) => ({
      code: k.unique(['organisation_id', lower], 'code'),
      organisation: k.grouped(['organisation_id', lower]),
    }),
    { organisation_id: 'organisations' },
  ),
  subscription_systems: collection(
    SubscriptionSystem,
    (k) => ({ organisation: k.unique(['organisation_id', lower]) }),
    { organisation_id: 'organisations' },
  ),
  retention_offers: collection(
    RetentionOffer,
    (k) => ({ id: k.unique(['id', lower]), package: k.grouped(['package_id', lower]) }),
    { organisation_id: 'organisations', package_id: 'products', campaign_id: 'products' },
  ),
} as const;

/** The document key of a collection. */
export type CollectionKey = keyof typeof COLLECTIONS;

type Lists = { [K in CollectionKey]: z.ZodDefault<z.ZodArray<(typeof COLLECTIONS)[K]['schema']>> };

function lists(): Lists {
  const out: Record<string, z.ZodType> = {};
  for (const [key, spec] of Object.entries(COLLECTIONS)) out[key] = z.array(spec.schema).default([]);
  return out as Lists;
}

/**
 * The zod schema of the state document. Every collection defaults to an empty list, so a document
 * written for an earlier version still loads. Checks unique keys and references (from the
 * collections' declarations) and each record's own rules.
 */
export const StateDocumentSchema = z
  .strictObject({
    ...lists(),
    /** The SSO audience constant: `aud` of request tokens, `iss` of session tokens (endpoint 21). */
    sso_audience: nonEmpty.default(DEFAULT_SSO_AUDIENCE).meta({
      description: 'The SSO audience constant: `aud` of request tokens, `iss` of session tokens.',
    }),
  })
  .check((ctx) => checkCollections(COLLECTIONS, ctx.value, ctx.issues))
  .check((ctx) => systemsWithinCaps(ctx.value.subscription_systems, ctx.issues))
  // A password given in clear is hashed, and only its hash is kept (the clear one wins over a hash).
  .transform((document) => {
    for (const account of document.accounts) {
      if (account.password === undefined) continue;
      account.password_hash = hashPassword(account.password);
      delete account.password;
    }
    return document;
  });

/**
 * An issue for each of {@link SYSTEM_CAPS} the systems pass together, on the system that passes it:
 * a document the platform writes always loads again, and one over a cap is refused as the admin
 * API refuses a customer or a distribution that would pass it.
 */
function systemsWithinCaps(systems: readonly SystemContents[], issues: z.core.$ZodRawIssue[]): void {
  for (const cap of SYSTEM_CAPS) {
    let total = 0;
    let at = -1;
    systems.forEach((system, i) => {
      total += cap.count(system);
      if (at < 0 && total > cap.max) at = i;
    });
    if (at >= 0)
      issues.push({
        code: 'custom',
        input: total,
        path: ['subscription_systems', at, ...cap.path],
        message: `The external subscription systems hold at most ${cap.max} ${cap.what} together: this document gives them ${total}`,
      });
  }
}

/** An auth endpoint of a ticket configuration: an absolute http(s) URL, or a path (`/auth/ticket`). */
function isEndpointUrl(value: string): boolean {
  if (value.startsWith('/')) return !value.startsWith('//') && !value.includes('\\');
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The whole state of the platform, as `snapshot()` and `GET /__admin/state` give it. */
export type StateDocument = z.output<typeof StateDocumentSchema>;
/** A state document as a seed or `restore()` takes it: every resource list may be left out. */
export type StateDocumentInput = z.input<typeof StateDocumentSchema>;

/** An organisation record. */
export type OrganisationRecord = z.output<typeof Organisation>;
/** An API client record. */
export type ClientRecord = z.output<typeof Client>;
/** An account record. */
export type AccountRecord = z.output<typeof Account>;
/** A stored price period. */
export type PricePeriodRecord = z.output<typeof StoredPricePeriod>;
/** A stored product, package or campaign. */
export type ProductRecord = z.output<typeof StoredProduct>;
/** A product's sharing option. */
export type ProductSharingRecord = z.output<typeof ProductSharing>;
/** An issued access token. */
export type AccessTokenRecord = z.output<typeof AccessToken>;
/** An account's address. */
export type AccountAddressRecord = z.output<typeof AccountAddress>;
/** An authorization ticket. */
export type TicketRecord = z.output<typeof Ticket>;
/** An SSO session. */
export type SsoSessionRecord = z.output<typeof SsoSession>;
/** One entry of an SSO session's timeline. */
export type SsoTimelineEntryRecord = z.output<typeof SsoTimelineEntry>;
/** A ticket configuration of the return flow. */
export type TicketConfigurationRecord = z.output<typeof TicketConfiguration>;
/** A marketplace of the shop. */
export type MarketplaceRecord = z.output<typeof Marketplace>;
/** A user-product (subscription). */
export type UserProductRecord = z.output<typeof UserProduct>;
/** A title of an organisation. */
export type TitleRecord = z.output<typeof StoredTitle>;
/** An order of a user-product. */
export type OrderRecord = z.output<typeof Order>;
/** A payment profile of a user-product. */
export type PaymentProfileRecord = z.output<typeof PaymentProfile>;
/** A change-log category of an organisation. */
export type ChangeLogCategoryRecord = z.output<typeof ChangeLogCategory>;
/** A change-log entry written to an account. */
export type AccountChangeLogRecord = z.output<typeof AccountChangeLog>;
/** A helpdesk message or template as stored. */
export type HelpdeskMessageRecord = z.output<typeof HelpdeskMessage>;
/** A cancellation reason of an organisation. */
export type CancellationReasonRecord = z.output<typeof CancellationReason>;
/** A retention offer. */
export type RetentionOfferRecord = z.output<typeof RetentionOffer>;
/** An organisation's external subscription system. */
export type SubscriptionSystemRecord = z.output<typeof SubscriptionSystem>;
/** A customer of an external subscription system. */
export type ExternalCustomerRecord = z.output<typeof ExternalCustomer>;
/** An address in an external subscription system. */
export type ExternalAddressRecord = z.output<typeof ExternalAddress>;
/** A customer of an external subscription system, as a test writes it. */
export type ExternalCustomerInput = z.input<typeof ExternalCustomer>;
