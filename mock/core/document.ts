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

/** An account (an end customer) of an organisation. */
const Account = z.strictObject({
  id,
  organisation_id: id,
  email: text,
  first_name: text,
  last_name: text,
  customer_number: text,
  status: nonEmpty,
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

/** An issued access token. */
const AccessToken = z.strictObject({
  access_token: nonEmpty,
  refresh_token: nonEmpty,
  client_id: nonEmpty,
  scopes: z.array(nonEmpty),
  account_id: id.nullable(),
  expires_at: dateTime,
});

type Issues = z.core.ParsePayload<unknown>['issues'];

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
    doc.access_tokens.forEach((t, i) => {
      if (!clients.has(t.client_id))
        issues.push({
          code: 'custom',
          input: t.client_id,
          path: ['access_tokens', i, 'client_id'],
          message: 'Parameter must name a client of the document',
        });
    });
  });

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
