/**
 * `platform-mock capture`: a real platform's catalogue, read through the SDK with the caller's
 * client credentials (products with their price periods and sharing options, payment periods,
 * cancellation reasons, titles), written as a state document with demo accounts and clients of
 * that organisation beside it, so that `platform-mock --seed <file>` runs it at once. The
 * caller's secret never lands in the file; the demo clients and users get fresh secrets, which
 * are answered (and printed) once.
 */
import { randomBytes } from 'node:crypto';
import { BadRequestError, PermissionDeniedError, PlatformClient } from '../../src/index.js';
import type { PaymentPeriod, Product, ProductSharingOption } from '../../src/schemas/products.js';
import type {
  AccountRecord,
  CancellationReasonRecord,
  ClientRecord,
  PricePeriodRecord,
  ProductRecord,
  ProductSharingRecord,
  StateDocumentInput,
  TitleRecord,
} from '../core/document.js';
import { StateDocumentSchema } from '../core/document.js';
import { hashPassword } from '../core/passwords.js';
import { validate } from '../core/validate.js';
import { ALL_SCOPES } from '../seeds/demo.js';
import type { CaptureOptions } from './options.js';
import { writeAtomically } from './state-file.js';

/** How far a capture has come: a step, and how many of its reads are done (of `total`, when known). */
export interface CaptureProgress {
  /** What is being read: `products`, `payment periods`, `sharing options`, `cancellation reasons`, `titles`. */
  readonly step: string;
  /** Reads done in this step. */
  readonly done: number;
  /** Reads this step makes, when known. */
  readonly total?: number;
  /** Set when the step was skipped: why (a scope the client lacks). */
  readonly skipped?: string;
}

/** A demo client of the document written, with its fresh secret. */
export interface CapturedClient {
  readonly clientId: string;
  readonly clientSecret: string;
  /** What it is for: `API client (every scope)`, `site`, `shop`. */
  readonly role: string;
}

/** What a capture read and wrote. */
export interface Captured {
  /** The state document, as written. */
  readonly document: StateDocumentInput;
  /** The demo clients of the document, with their secrets (in the document too, and nowhere else). */
  readonly clients: readonly CapturedClient[];
  /** The demo users (e-mail and password; the document keeps only the password's hash). */
  readonly users: readonly { readonly email: string; readonly password: string }[];
  /** The shop's marketplace in the document: `/marketplace/{group_id}/{marketplace_id}`. */
  readonly marketplacePath: string;
}

/** Options of {@link captureCatalogue} beyond the command line's. */
export interface CaptureRun {
  /** Told as the capture goes (the CLI prints it on standard error). */
  readonly progress?: (progress: CaptureProgress) => void;
  /** The `fetch` the SDK uses. Default: the global one. */
  readonly fetch?: typeof fetch;
  /** The time for each whole answer, in ms (parity's `--timeout`). Default: the SDK's. */
  readonly timeoutMs?: number;
  /**
   * How many times a read that got no answer, or a 5xx, is sent again. Default: the SDK's (2).
   * `parity` sends none: each answer must arrive whole within its `--timeout`.
   */
  readonly maxRetries?: number;
}

const PRODUCTS = '/external/product/r';
const REASONS = '/external/cancellation_reason/r';
const TITLES = '/external/title/r';

/** The scopes of the demo site (as the demo seed's sites have them). */
const SITE_SCOPES = [
  '/api/authorization/ticket',
  '/external/order_validation/r',
  PRODUCTS,
  REASONS,
  '/external/me/r',
  '/external/me/w',
  TITLES,
];

/** The demo shop's marketplace: `/marketplace/demo/main`, as in the demo seed. */
const MARKETPLACE = { group_id: 'demo', marketplace_id: 'main' } as const;

/** A fresh secret: 32 random bytes, base64url (long enough to sign HS256 tokens). */
function freshSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A fresh id of the platform's form: 24 hex digits. */
function freshId(): string {
  return randomBytes(12).toString('hex');
}

/** A client of the caller's credentials with one scope: a scope the client lacks fails only its own step. */
function clientFor(options: CaptureOptions, scope: string, run: CaptureRun): PlatformClient {
  return new PlatformClient({
    environment: 'stage',
    hosts: { api: options.api, auth: options.auth },
    auth: { clientId: options.clientId, clientSecret: options.clientSecret, scopes: [scope] },
    // The caller named these hosts on the command line: plain http (a platform-mock on a test network) is their call.
    allowInsecureHttp: true,
    ...(run.fetch ? { fetch: run.fetch } : {}),
    ...(run.timeoutMs === undefined ? {} : { timeout: run.timeoutMs }),
    ...(run.maxRetries === undefined ? {} : { maxRetries: run.maxRetries }),
  });
}

/** Whether an error says the client may not read this (a scope it was not granted). */
function notGranted(error: unknown): boolean {
  return (
    error instanceof PermissionDeniedError ||
    (error instanceof BadRequestError && (error.code === 'invalid_scope' || error.field === 'scope'))
  );
}

/** Runs `read`, or answers `fallback` (and tells why) when the client lacks `scope`. */
async function optional<T>(step: string, scope: string, run: CaptureRun, read: () => Promise<T>, fallback: T) {
  try {
    return await read();
  } catch (error) {
    if (!notGranted(error)) throw error;
    run.progress?.({ step, done: 0, skipped: `the client has no ${scope}` });
    return fallback;
  }
}

/** A stored price period: the product's period, with what endpoint 3 adds (`enabled`, the psp's details). */
function pricePeriodRecord(
  period: Product['price_periods'][number],
  paid: PaymentPeriod | undefined,
): PricePeriodRecord {
  const record = {
    id: period.id,
    purchase_type: period.purchase_type,
    payment_option: period.payment_option,
    type: period.type,
    length: period.length,
    enabled: paid?.enabled ?? true,
    ...(period.price === undefined ? {} : { price: period.price }),
    ...(period.details === undefined ? {} : { details: period.details }),
    ...(paid?.details === undefined ? {} : { payment_option_details: paid.details }),
  };
  // Its enums are checked with the whole document before it is written.
  return record as PricePeriodRecord;
}

/** A stored product: the product as read, with its organisation and its periods completed. */
function productRecord(
  product: Product,
  organisationId: string,
  periods: readonly PaymentPeriod[] | undefined,
): ProductRecord {
  const { price_periods, ...rest } = product;
  return {
    ...rest,
    organisation_id: organisationId,
    price_periods: price_periods.map((p) =>
      pricePeriodRecord(
        p,
        periods?.find((q) => q.id === p.id),
      ),
    ),
  };
}

/** A product's sharing option as the document keeps it; none when it is not shareable (the platform's default). */
function sharingRecord(productId: string, options: readonly ProductSharingOption[]): ProductSharingRecord | undefined {
  const option = options[0];
  if (!option?.shareable) return undefined;
  return { product_id: productId, ...option };
}

/**
 * Reads the catalogue of the organisation of `options.clientId` through the SDK and answers the
 * state document that serves it, with demo clients and users of that organisation. Reads only.
 */
export async function captureCatalogue(options: CaptureOptions, run: CaptureRun = {}): Promise<Captured> {
  const organisationId = options.organisation.toLowerCase();
  const progress = run.progress ?? (() => undefined);
  const reader = clientFor(options, PRODUCTS, run);

  progress({ step: 'products', done: 0 });
  const { items } = await reader.products.list({ include_inactive: true });
  progress({ step: 'products', done: items.length, total: items.length });

  // Endpoint 3 answers packages and campaigns only; it adds what endpoint 2 does not show.
  const priced = items.filter((p) => p.is_package || p.is_campaign);
  const periods = new Map<string, readonly PaymentPeriod[]>();
  for (const [i, product] of priced.entries()) {
    periods.set(product.id, (await reader.products.paymentPeriods({ product_id: product.id })).items);
    progress({ step: 'payment periods', done: i + 1, total: priced.length });
  }

  const sharing: ProductSharingRecord[] = [];
  for (const [i, product] of items.entries()) {
    const record = sharingRecord(product.id, (await reader.products.sharing({ id: product.id })).item);
    if (record) sharing.push(record);
    progress({ step: 'sharing options', done: i + 1, total: items.length });
  }

  const reasons = await optional(
    'cancellation reasons',
    REASONS,
    run,
    async () => (await clientFor(options, REASONS, run).cancellationReasons.list({ include_internal: true })).items,
    [],
  );
  progress({ step: 'cancellation reasons', done: reasons.length, total: reasons.length });

  const titles = await optional(
    'titles',
    TITLES,
    run,
    async () => (await clientFor(options, TITLES, run).titles.list()).items,
    [],
  );
  progress({ step: 'titles', done: titles.length, total: titles.length });

  const products = items.map((p) => productRecord(p, organisationId, periods.get(p.id)));
  const complex = items.some((p) => p.price_periods.some((q) => q.details !== undefined));
  return withDemo({
    organisationId,
    priceModel: complex ? 'complex' : 'simple',
    products,
    sharing,
    reasons: reasons.map((r): CancellationReasonRecord => ({ ...r, organisation_id: organisationId })),
    titles: titles.map((t): TitleRecord => ({ ...t, organisation_id: organisationId })),
  });
}

/** The catalogue as read, of one organisation. */
interface Catalogue {
  readonly organisationId: string;
  readonly priceModel: 'simple' | 'complex';
  readonly products: readonly ProductRecord[];
  readonly sharing: readonly ProductSharingRecord[];
  readonly reasons: readonly CancellationReasonRecord[];
  readonly titles: readonly TitleRecord[];
}

/**
 * The document of a catalogue, with what makes it run at once: an API client with every scope, a
 * site (SSO, the ticket flow back to `localhost`), the shop with a marketplace of the active
 * packages and campaigns, and two users who can log in to it. Every secret is fresh.
 */
function withDemo(catalogue: Catalogue): Captured {
  const org = catalogue.organisationId;
  const clients: CapturedClient[] = [
    { clientId: 'captured-client', clientSecret: freshSecret(), role: 'API client (every scope)' },
    { clientId: 'captured-site', clientSecret: freshSecret(), role: 'site' },
    { clientId: 'captured-shop', clientSecret: freshSecret(), role: 'shop' },
  ];
  const [api, site, shop] = clients as [CapturedClient, CapturedClient, CapturedClient];
  const clientRecords: ClientRecord[] = [
    {
      client_id: api.clientId,
      client_secret: api.clientSecret,
      organisation_id: org,
      scopes: [...ALL_SCOPES],
      provision_service: 'demo-provision',
      name: 'Demo client',
    },
    {
      client_id: site.clientId,
      client_secret: site.clientSecret,
      organisation_id: org,
      scopes: SITE_SCOPES,
      provision_service: null,
      name: 'Demo site',
      landing_url: 'http://localhost:3000/sso/landing',
    },
    {
      client_id: shop.clientId,
      client_secret: shop.clientSecret,
      organisation_id: org,
      scopes: ['/api/authorization/ticket', '/external/order_validation/r', PRODUCTS],
      provision_service: null,
      name: 'Demo shop',
    },
  ];
  const users = ['demo-1@example.com', 'demo-2@example.com'].map((email) => ({ email, password: freshSecret() }));
  const accounts: AccountRecord[] = users.map((u, i) => ({
    id: freshId(),
    organisation_id: org,
    email: u.email,
    first_name: 'Demo',
    last_name: `User ${i + 1}`,
    customer_number: `DEMO-${i + 1}`,
    status: 'active',
    password_hash: hashPassword(u.password),
    verified: true,
  }));
  const now = Date.now();
  const onSale = catalogue.products
    .filter((p) => (p.is_package || p.is_campaign) && Date.parse(p.valid_from) <= now && now < Date.parse(p.valid_to))
    .map((p) => p.product_code);
  const document: StateDocumentInput = {
    organisations: [{ id: org, name: 'Captured organisation', price_model: catalogue.priceModel }],
    clients: clientRecords,
    accounts,
    products: [...catalogue.products],
    product_sharing: [...catalogue.sharing],
    cancellation_reasons: [...catalogue.reasons],
    titles: [...catalogue.titles],
    ticket_configurations: [{ domain: 'localhost', client_id: site.clientId, mode: 'ReturnUrl', auth_endpoint: null }],
    marketplaces: [{ ...MARKETPLACE, name: 'Demo shop', client_id: shop.clientId, product_codes: onSale }],
  };
  return {
    document,
    clients,
    users,
    marketplacePath: `/marketplace/${MARKETPLACE.group_id}/${MARKETPLACE.marketplace_id}`,
  };
}

/**
 * Captures the catalogue ({@link captureCatalogue}), checks the document as the platform will
 * (throws the platform's `HttpError`, naming the field, when a record read breaks a rule of the
 * state document) and writes it to `options.out`, replacing the file atomically.
 */
export async function capture(options: CaptureOptions, run: CaptureRun = {}): Promise<Captured> {
  const captured = await captureCatalogue(options, run);
  validate(StateDocumentSchema, captured.document);
  await writeAtomically(options.out, `${JSON.stringify(captured.document, null, 2)}\n`);
  return captured;
}
