/**
 * The state document: the whole state of the reference platform as one JSON value. Seeds are
 * state documents, `GET /__admin/state` answers one and `PUT /__admin/state` takes one.
 * Resources sit under plural snake_case names; their fields are spelled as in the spec.
 */
import * as z from 'zod';
import { dateTime, id } from '../../src/schemas/common.js';
import { PeriodType, SubscriptionType } from '../../src/schemas/products.js';

const text = z.string();
const nonEmpty = z.string().min(1);

/** An organisation: the owner of clients, accounts and products, with its price model. */
const Organisation = z.strictObject({
  id,
  name: text,
  /** `simple`: a period has one `price`; `complex`: a period has price `details`. */
  price_model: z.enum(['simple', 'complex']),
});

/** An API client: credentials, organisation, the scopes it may ask for, its provision service. */
const Client = z.strictObject({
  client_id: nonEmpty,
  client_secret: nonEmpty,
  organisation_id: id,
  scopes: z.array(nonEmpty),
  provision_service: z.string().nullable(),
  name: text.optional(),
});

/** A postal address of an account, as endpoint 24 reads it (in camelCase there). */
const AccountAddress = z.strictObject({ street: text, zip_code: text, city: text, country_code: text });

/** A date of birth: a calendar date (`1985-04-12`) or a date-time with offset. */
const dateOfBirth = z.union([z.iso.date(), dateTime]);

/** An account (an end customer) of an organisation. */
const Account = z.strictObject({
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
  /** The shop's login password (a demo value, a secret: never journaled, never in an error). None: no form login. */
  password: nonEmpty.optional(),
  /** Social security number: endpoint 9 finds the account by it. */
  ssn: nonEmpty.optional(),
  /** Endpoint 9's age check reads it. */
  date_of_birth: dateOfBirth.optional(),
});

/** A price period as stored: the spec's read fields plus what endpoints 1 and 3 need. */
const StoredPricePeriod = z.strictObject({
  id,
  purchase_type: SubscriptionType,
  payment_option: nonEmpty,
  type: PeriodType,
  length: z.number().int().positive(),
  price: z.number().optional(),
  details: z.array(z.strictObject({ name: text, price: z.number(), vat_code: z.number().int() })).optional(),
  /** Only for `psp`: the payment method's type and name. */
  payment_option_details: z.strictObject({ type: text, name: text }).optional(),
  enabled: z.boolean(),
  monthly_payments: z.boolean().optional(),
});

/** A product, package or campaign as stored: the spec's Product plus `organisation_id`. */
const StoredProduct = z.strictObject({
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
});

/** The sharing option of a product (endpoint 15). */
const ProductSharing = z.strictObject({
  product_id: id,
  shareable: z.boolean(),
  limit: z.number().int().nonnegative(),
  sharing_text: z.string().nullable(),
  sharing_title: z.string().nullable(),
  received_product_text: z.string().nullable(),
  received_product_title: z.string().nullable(),
});

/** An issued access token with its refresh token. */
const AccessToken = z.strictObject({
  access_token: nonEmpty,
  refresh_token: nonEmpty,
  client_id: nonEmpty,
  scopes: z.array(nonEmpty),
  account_id: id.nullable(),
  expires_at: dateTime,
  /** When the token (and its refresh token) was revoked: the API answers 401 `invalid_token`. */
  revoked_at: dateTime.nullable().default(null),
  /** When its refresh token was spent (a refresh token is usable once: it rotates). */
  refreshed_at: dateTime.nullable().default(null),
  /**
   * The refresh family: every token refreshed from one grant shares it, so that a reused refresh
   * token or ticket revokes the whole chain (RFC 6749 section 10.5). Absent: the token alone.
   */
  family: nonEmpty.optional(),
});

/** An authorization ticket: single use, short-lived, bound to its destination client (the platform's public documentation). */
const Ticket = z.strictObject({
  /** The ticket itself: 256 random bits, base64url. A credential. */
  ticket: nonEmpty,
  account_id: id,
  /** The destination client: only it may exchange (or present) the ticket. */
  client_id: nonEmpty,
  issued_at: dateTime,
  expires_at: dateTime,
  used_at: dateTime.nullable(),
  /** The access token its exchange (endpoint 23) issued: revoked when the ticket is presented again. */
  access_token: nonEmpty.nullable(),
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
const SsoSession = z.strictObject({
  sid: nonEmpty,
  state: z.enum(['anon', 'loggedin', 'terminated']),
  account_id: id.nullable(),
  /** The client the session was created for; its organisation's clients may use it. */
  client_id: nonEmpty.nullable(),
  created_at: dateTime,
  timeline: z.array(SsoTimelineEntry),
});

/**
 * A site registered for the return flow (spec: Return flow 6). `domain` is a host name matched
 * exactly (case-insensitive, ports ignored) against the return URL's.
 */
const TicketConfiguration = z.strictObject({
  domain: nonEmpty,
  client_id: nonEmpty,
  mode: z.enum(['ReturnUrl', 'SeparateTicketAuth']),
  /**
   * `SeparateTicketAuth` only: the site's auth endpoint, an absolute http(s) URL or a path
   * (`/auth/ticket`) taken on the return URL's origin (ports are dynamic in tests).
   */
  auth_endpoint: nonEmpty.nullable(),
});

/** A marketplace of the shop (endpoint 25): what it sells and the client its tickets are bound to. */
const Marketplace = z.strictObject({
  group_id: nonEmpty,
  marketplace_id: nonEmpty,
  name: text,
  /** The shop's own client: tickets sent to this marketplace are bound to it. */
  client_id: nonEmpty,
  /** The packages and campaigns on sale, by product code. */
  product_codes: z.array(nonEmpty),
});

/** A user-product (subscription): what a purchase creates (the platform's public documentation lists the shape). */
const UserProduct = z.strictObject({
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
  provision_service: z.string().nullable(),
  subscription_type: SubscriptionType,
  /** `cancelled`: cancelled by the customer, running until `valid_to`. */
  state: z.enum(['activated', 'deactivated', 'cancelled']),
  has_pending_change_request: z.boolean(),
  external_start_date: dateTime.nullable(),
  payment_option: z.string().nullable(),
  period_id: id.nullable(),
  order_id: z.string().max(1024).nullable(),
});

type Issues = z.core.ParsePayload<unknown>['issues'];

/** The SSO audience constant of a state document that names none. */
export const DEFAULT_SSO_AUDIENCE = 'sso.platform.test';

/** Reports a second record with the same key, and returns the keys seen. */
function unique<T>(
  issues: Issues,
  rows: readonly T[],
  resource: string,
  field: keyof T & string,
  key = (r: T) => String(r[field]).toLowerCase(),
): Set<string> {
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const k = key(row);
    if (seen.has(k))
      issues.push({
        code: 'custom',
        input: row[field],
        path: [resource, i, field],
        message: 'Parameter must be unique',
      });
    seen.add(k);
  });
  return seen;
}

/**
 * The zod schema of the state document. Every resource defaults to an empty list, so a document
 * written for an earlier version still loads. Checks ids are unique and every `organisation_id`
 * and token `client_id` names a record of the document.
 */
export const StateDocumentSchema = z
  .strictObject({
    organisations: z.array(Organisation).default([]),
    clients: z.array(Client).default([]),
    accounts: z.array(Account).default([]),
    products: z.array(StoredProduct).default([]),
    product_sharing: z.array(ProductSharing).default([]),
    access_tokens: z.array(AccessToken).default([]),
    /** The SSO audience constant: `aud` of request tokens, `iss` of session tokens (endpoint 21). */
    sso_audience: nonEmpty.default(DEFAULT_SSO_AUDIENCE),
    tickets: z.array(Ticket).default([]),
    sso_sessions: z.array(SsoSession).default([]),
    ticket_configurations: z.array(TicketConfiguration).default([]),
    marketplaces: z.array(Marketplace).default([]),
    user_products: z.array(UserProduct).default([]),
  })
  .check((ctx) => {
    const doc = ctx.value;
    const issues = ctx.issues;
    const organisations = unique(issues, doc.organisations, 'organisations', 'id');
    const clients = unique(issues, doc.clients, 'clients', 'client_id', (c) => c.client_id);
    unique(issues, doc.accounts, 'accounts', 'id');
    unique(issues, doc.products, 'products', 'id');
    unique(
      issues,
      doc.products,
      'products',
      'product_code',
      (p) => `${p.organisation_id.toLowerCase()} ${p.product_code}`,
    );
    unique(issues, doc.product_sharing, 'product_sharing', 'product_id');
    unique(issues, doc.access_tokens, 'access_tokens', 'access_token', (t) => t.access_token);
    const codes = new Set<string>();
    doc.products.forEach((p, i) => {
      if (p.integration_code === undefined) return;
      const k = `${p.organisation_id.toLowerCase()} ${p.integration_code}`;
      if (codes.has(k))
        issues.push({
          code: 'custom',
          input: p.integration_code,
          path: ['products', i, 'integration_code'],
          message: 'Parameter must be unique',
        });
      codes.add(k);
    });
    for (const [resource, rows] of [
      ['clients', doc.clients],
      ['accounts', doc.accounts],
      ['products', doc.products],
    ] as const) {
      rows.forEach((row, i) => {
        if (!organisations.has(row.organisation_id.toLowerCase()))
          issues.push({
            code: 'custom',
            input: row.organisation_id,
            path: [resource, i, 'organisation_id'],
            message: 'Parameter must name an organisation of the document',
          });
      });
    }
    const accounts = new Set(doc.accounts.map((a) => a.id.toLowerCase()));
    const products = new Set(doc.products.map((p) => p.id.toLowerCase()));
    const refer = (set: Set<string>, what: string, resource: string, rows: readonly object[], field: string) => {
      rows.forEach((row, i) => {
        const value = (row as Record<string, unknown>)[field];
        if (typeof value === 'string' && !set.has(what === 'client' ? value : value.toLowerCase()))
          issues.push({
            code: 'custom',
            input: value,
            path: [resource, i, field],
            message: `Parameter must name ${what === 'account' ? 'an' : 'a'} ${what} of the document`,
          });
      });
    };
    refer(clients, 'client', 'access_tokens', doc.access_tokens, 'client_id');
    refer(clients, 'client', 'tickets', doc.tickets, 'client_id');
    refer(accounts, 'account', 'tickets', doc.tickets, 'account_id');
    refer(clients, 'client', 'sso_sessions', doc.sso_sessions, 'client_id');
    refer(accounts, 'account', 'sso_sessions', doc.sso_sessions, 'account_id');
    refer(clients, 'client', 'ticket_configurations', doc.ticket_configurations, 'client_id');
    refer(clients, 'client', 'marketplaces', doc.marketplaces, 'client_id');
    refer(accounts, 'account', 'user_products', doc.user_products, 'account_id');
    refer(products, 'product', 'user_products', doc.user_products, 'product_id');
    unique(issues, doc.tickets, 'tickets', 'ticket', (t) => t.ticket);
    unique(issues, doc.sso_sessions, 'sso_sessions', 'sid', (s) => s.sid);
    unique(issues, doc.ticket_configurations, 'ticket_configurations', 'domain');
    unique(issues, doc.marketplaces, 'marketplaces', 'marketplace_id', (m) => `${m.group_id}/${m.marketplace_id}`);
    unique(issues, doc.user_products, 'user_products', 'id');
    doc.ticket_configurations.forEach((t, i) => {
      const needed = t.mode === 'SeparateTicketAuth';
      if (needed !== (t.auth_endpoint !== null) || (t.auth_endpoint !== null && !isEndpointUrl(t.auth_endpoint)))
        issues.push({
          code: 'custom',
          input: t.auth_endpoint,
          path: ['ticket_configurations', i, 'auth_endpoint'],
          message: needed
            ? 'Parameter must be an absolute http(s) URL or a path starting with /'
            : 'Parameter must be null unless the mode is SeparateTicketAuth',
        });
    });
  });

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
