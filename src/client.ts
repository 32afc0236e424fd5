/**
 * The client: one {@link PlatformClient} per environment, its resources (`src/resources/*.ts`,
 * which name an endpoint entry and never touch the pipeline), and the types of what a call takes.
 * The pipeline itself is `src/pipeline.ts`.
 */
import type * as z from 'zod';
import type { APIPromise } from './api-promise.js';
import type { Environment } from './endpoints.js';
import { type ClientCredentials, type PlatformClientOptions, parseOptions } from './options.js';
import { ANY_ANSWER, Pipeline } from './pipeline.js';
import type { RawRequestParams, RequestOptions } from './request.js';
import { AccountChangeLog } from './resources/account-change-log.js';
import { Accounts } from './resources/accounts.js';
import { Authorization } from './resources/authorization.js';
import { CancellationReasons } from './resources/cancellation-reasons.js';
import { Helpdesk } from './resources/helpdesk.js';
import { Me } from './resources/me.js';
import { MeRetention } from './resources/me-retention.js';
import { Orders } from './resources/orders.js';
import { Prices } from './resources/prices.js';
import { Products } from './resources/products.js';
import { Shop } from './resources/shop.js';
import { SignOn } from './resources/sign-on.js';
import { Sso } from './resources/sso.js';
import { SubscriptionSystem } from './resources/subscription-system.js';
import { Subscriptions } from './resources/subscriptions.js';
import { Titles } from './resources/titles.js';
import { UserProducts } from './resources/user-products.js';

/**
 * A typed client of the platform's external API, for one environment.
 *
 * ```ts
 * const client = new PlatformClient({
 *   environment: 'production',
 *   hosts: { api: 'https://api.example.com', auth: 'https://auth.example.com' },
 *   auth: { clientId, clientSecret, scopes: ['/external/product/r'] },
 * });
 * const { items } = await client.products.list({ product_type: 'packages' });
 * ```
 *
 * Every method checks its input before sending (a {@link RequestValidationError}), retries reads
 * on network errors, 408, 429, 500, 502, 503 and 504 with backoff and jitter, honours `Retry-After` up to
 * `maxRetryAfter`, and throws an `APIError` subclass for each status family.
 */
export class PlatformClient {
  /** Products, packages and campaigns: endpoints 2, 3 and 15. */
  readonly products: Products;
  /** Prices of packages and campaigns: endpoint 1. */
  readonly prices: Prices;
  /** Order validation and gift receivers: endpoints 9 and 17. */
  readonly orders: Orders;
  /** Tickets and user tokens on the authorization API: endpoints 22 and 23. */
  readonly authorization: Authorization;
  /** The signed-in user, read with the user's token: endpoint 24, and the documented me API (beyond the spec). */
  readonly me: Me;
  /** Accounts' active products (beyond the spec: the account API). */
  readonly accounts: Accounts;
  /** The organisation's titles (beyond the spec: the titles API). */
  readonly titles: Titles;
  /** The SSO session service: endpoint 21, and identify, sessions, login and logout (beyond the spec). Needs the `credentials` and `sso` options. */
  readonly sso: Sso;
  /** The shop: endpoint 25. Needs `hosts.shop`. */
  readonly shop: Shop;
  /** The way back from the shop (spec: "Return flow"), over `authorization` and `me`. */
  readonly signOn: SignOn;
  /** User-products of this client's provision service: endpoints 13 and 12. */
  readonly userProducts: UserProducts;
  /** Subscriptions between accounts: endpoint 5. */
  readonly subscriptions: Subscriptions;
  /** The subscription system: reactivation (16) and the external system's sync and distribution (18, 19, 20). */
  readonly subscriptionSystem: SubscriptionSystem;
  /** Change-log entries on accounts, and their categories: endpoint 4. */
  readonly accountChangeLog: AccountChangeLog;
  /** The helpdesk's reads: endpoints 8, 10 and 11. */
  readonly helpdesk: Helpdesk;
  /** Cancellation reasons: endpoint 14. */
  readonly cancellationReasons: CancellationReasons;
  /** Retention for the signed-in user: endpoints 6 and 7. */
  readonly meRetention: MeRetention;
  /** The environment this client talks to. */
  readonly environment: Environment;

  readonly #pipeline: Pipeline;

  /**
   * Creates a client; nothing is sent until the first call.
   * @throws {@link ClientConfigurationError} at once, naming the option, when an option is wrong
   */
  constructor(options: PlatformClientOptions) {
    const settings = parseOptions(options);
    const pipeline = new Pipeline(settings);
    this.#pipeline = pipeline;
    const { auth } = settings;
    // Client credentials are the site's own too (their scopes are not read from there).
    const credentials: ClientCredentials | undefined = settings.credentials ?? ('clientId' in auth ? auth : undefined);
    this.environment = settings.environment;
    this.products = new Products(pipeline);
    this.prices = new Prices(pipeline);
    this.orders = new Orders(pipeline);
    this.authorization = new Authorization(pipeline, credentials);
    this.me = new Me(pipeline);
    this.accounts = new Accounts(pipeline);
    this.titles = new Titles(pipeline);
    this.sso = new Sso(pipeline, {
      credentials,
      sso: settings.sso,
      hosts: settings.hosts,
      environment: settings.environment,
    });
    this.shop = new Shop(settings.hosts.shop);
    this.signOn = new SignOn(this.authorization, this.me, credentials !== undefined);
    this.userProducts = new UserProducts(pipeline);
    this.subscriptions = new Subscriptions(pipeline);
    this.subscriptionSystem = new SubscriptionSystem(pipeline);
    this.accountChangeLog = new AccountChangeLog(pipeline);
    this.helpdesk = new Helpdesk(pipeline);
    this.cancellationReasons = new CancellationReasons(pipeline);
    this.meRetention = new MeRetention(pipeline);
  }

  /**
   * The bearer token the client sends on its next API request, for a call made without the SDK (a
   * CLI, another process) or to read it. With client credentials: the cached token, got first with
   * the server-to-server grant (`grant_type=none`, the `auth.scopes`) when there is none or it is
   * about to expire; else the fixed token, or what the provider gives.
   *
   * ```ts
   * const token = await client.accessToken();
   * await fetch(`${apiHost}/external/api/v1/titles/`, { headers: { authorization: `Bearer ${token}` } });
   * ```
   */
  accessToken(): Promise<string> {
    return this.#pipeline.auth.token();
  }

  /**
   * A request to a path the SDK does not wrap, through the same pipeline as every method: the
   * client's auth (unless `bearer: false`), timeout, abort, retries of reads, logging with secrets
   * redacted, and errors by status. The answer is checked against `schema` when one is given, and
   * typed by it. Refused before anything is sent: a parameter it does not know or breaking its rule
   * (`RequestValidationError` naming it), a `host` the client was not given (`ClientConfigurationError`
   * naming `hosts.<host>`).
   *
   * ```ts
   * const Titles = z.object({ items: z.array(z.object({ code: z.string(), name: z.string() })) });
   * const { items } = await client.request({ method: 'GET', path: '/external/api/v1/titles/', schema: Titles });
   * ```
   */
  request<S extends z.ZodType>(
    params: RawRequestParams<S> & { schema: S },
    options?: RequestOptions,
  ): APIPromise<z.output<S>>;
  /** A request to a path the SDK does not wrap, its answer as it is (`unknown`): see the overload with a `schema`. */
  request(params: RawRequestParams, options?: RequestOptions): APIPromise<unknown>;
  request(params: RawRequestParams, options?: RequestOptions): APIPromise<unknown> {
    return this.#pipeline.requestRaw(params, params?.schema ?? ANY_ANSWER, options);
  }
}
