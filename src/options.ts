/**
 * The client's options, declared once: the zod schema below gives their type
 * ({@link PlatformClientOptions}), their defaults and their checks. The constructor parses them
 * once: a mistake is thrown at once, naming the option as the caller spelled it (`hosts.api`,
 * `auth.clientId`), never on the first call as a wire field. Values are never quoted: some are secrets.
 */
import * as z from 'zod';
import type { Environment } from './endpoints.js';
import { ClientConfigurationError } from './errors.js';
import type { Logger } from './logger.js';
import { isLoopbackHostname } from './loopback.js';
import type { RequestHeaders, RequestOptions } from './request.js';
import { fieldOf } from './schemas/common.js';
import { MAX_SAFE_TIMEOUT } from './sleep.js';
import { HEADER_VALUE_RULE, isHeaderValue } from './transport.js';

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

function isFunction(value: unknown): value is (...args: never[]) => unknown {
  return typeof value === 'function';
}

const NON_EMPTY = 'must be a non-empty string';

/** A string with something in it besides white space. */
const nonEmpty = z.string({ error: NON_EMPTY }).refine((value) => value.trim() !== '', NON_EMPTY);

/** A non-empty string a header can carry as it is (a token: it goes in `Authorization`). */
const headerText = nonEmpty.refine(isHeaderValue, HEADER_VALUE_RULE);

/** A number of the given kind; NaN and the infinities are no number here (as in zod). */
const POSITIVE = 'must be a positive number';
/** A time in ms a timer can hold: positive, at most 2^31 - 1 (about 24.8 days). */
const timeoutMs = z
  .number({ error: POSITIVE })
  .positive(POSITIVE)
  .max(MAX_SAFE_TIMEOUT, `must be at most ${MAX_SAFE_TIMEOUT} (ms), the longest a timer holds`);
const nonNegative = z.number({ error: 'must be a non-negative number' }).nonnegative('must be a non-negative number');
const NON_NEGATIVE_INTEGER = 'must be a non-negative integer number';
const nonNegativeInteger = z
  .number({ error: NON_NEGATIVE_INTEGER })
  .int(NON_NEGATIVE_INTEGER)
  .nonnegative(NON_NEGATIVE_INTEGER);

function parsedUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

const ABSOLUTE_URL = 'must be an absolute http(s) URL, e.g. https://api.example.com';
const PLAIN_HTTP = 'must use https (http only on a loopback host, or with allowInsecureHttp: true)';

/**
 * A host of the platform: an absolute http(s) URL, without credentials, query or fragment. Also the
 * rule of `platform-mock`'s host flags (`capture`, `parity`), which hand the hosts to this client.
 */
export const HostUrl = z
  .string({ error: ABSOLUTE_URL })
  .refine((value) => /^https?:$/.test(parsedUrl(value)?.protocol ?? ''), { error: ABSOLUTE_URL, abort: true })
  .refine((value) => {
    const url = parsedUrl(value);
    return !url?.username && !url?.password;
  }, 'must not carry credentials (user:password@)')
  // The text, not the parsed URL: a bare `?` or `#` is an empty query or fragment, which `URL.search`
  // and `URL.hash` leave out, and every path would then be joined into it.
  .refine((value) => !value.includes('?') && !value.includes('#'), 'must not carry a query or a fragment');

/** The hosts of one environment (spec: `{base_url}`, `{auth_api_url}`, `{sso_url}`, `{shop_url}`). */
const Hosts = z.object(
  {
    /** `{base_url}`: the external API. */
    api: HostUrl,
    /** `{auth_api_url}`: the authorization API (tokens, tickets). */
    auth: HostUrl,
    /** `{sso_url}`: the SSO session service. */
    sso: HostUrl.optional(),
    /** `{shop_url}`: the shop. */
    shop: HostUrl.optional(),
  },
  { error: 'must be an object with the api and auth hosts' },
);
/**
 * The hosts of one environment (spec: `{base_url}`, `{auth_api_url}`, `{sso_url}`, `{shop_url}`):
 * absolute http(s) URLs without credentials, query or fragment. A path is kept (`/platform` in
 * `https://example.com/platform`), a trailing slash dropped. The reference platform answers every
 * host on one URL.
 */
export interface Hosts {
  /** `{base_url}`: the external API (endpoints 1 to 20, 24, the me and titles API). Required. */
  api: string;
  /** `{auth_api_url}`: the authorization API (tickets and tokens, 22 and 23). Required. */
  auth: string;
  /** `{sso_url}`: the SSO session service (21). Needed by `client.sso` only. */
  sso?: string;
  /** `{shop_url}`: the shop users are sent to (25). Needed by `client.shop` only. */
  shop?: string;
}

/** A fixed access token, or a function the client calls before each request (it should cache). */
const AccessTokenAuth = z.strictObject({
  /**
   * The bearer token, or a provider of it. A provider is called once per request, and once more
   * after a 401 (it should then return a fresh token).
   */
  accessToken: z.union([headerText, z.custom<() => string | Promise<string>>(isFunction, NON_EMPTY)], {
    error: NON_EMPTY,
  }),
});
/** A fixed access token, or a function the client calls before each request (it should cache). */
export interface AccessTokenAuth {
  /**
   * The bearer token, or a provider of it. A provider is called once per request, and once more
   * after a 401 (it should then return a fresh token); a fixed token is never retried after a 401.
   * A fixed token with a line break, a NUL or another character a header cannot carry is refused.
   * So is what a provider returns, by the call that asked for it: anything but a non-empty string a
   * header can carry (`undefined`, a number, a trailing line break) fails that call with a
   * `ClientConfigurationError` naming `auth.accessToken`, before anything is sent.
   */
  accessToken: string | (() => string | Promise<string>);
}

const SCOPES = 'must be a list of scopes, e.g. ["/external/product/r"]';
const scope = z.string({ error: SCOPES }).refine((value) => value.trim() !== '', SCOPES);

/**
 * The platform's server-to-server grant: the client posts `grant_type: 'none'` with these
 * credentials to `{auth host}/api/authorization/access_token`, caches the token, refreshes it
 * before it expires and once after a 401.
 */
const ClientCredentialsAuth = z.strictObject({
  /** The API client id. */
  clientId: nonEmpty,
  /** The API client secret. Never logged, never in an error message. */
  clientSecret: nonEmpty,
  /** The scopes to ask for, e.g. `['/external/product/r', '/external/price/w']`. */
  scopes: z.array(scope, { error: SCOPES }).readonly(),
});
/**
 * The platform's server-to-server grant: the client posts `grant_type: 'none'` with these
 * credentials to `{auth host}/api/authorization/access_token`, caches the token, refreshes it
 * before it expires and once after a 401.
 */
export interface ClientCredentialsAuth {
  /** The API client id. */
  clientId: string;
  /** The API client secret. Never logged, never in an error message. */
  clientSecret: string;
  /**
   * The scopes to ask for, e.g. `['/external/product/r', '/external/price/w']`; the platform
   * refuses one the client was not granted (`400 invalid_scope`).
   */
  scopes: readonly string[];
}

/** How the client authenticates: a token, a token provider, or client credentials. */
export type AuthOptions = AccessTokenAuth | ClientCredentialsAuth;

/** What an option it does not know (a typo) is told. */
const UNKNOWN_OPTION = 'is not an option of the client';
/** What an option of a call it does not know (a typo) is told. */
const UNKNOWN_CALL_OPTION = 'is not an option of a call';

/** Where an issue is and what it says: an option the client does not know is named itself. */
function located(issue: z.core.$ZodIssue): { path: PropertyKey[]; message: string } {
  const unknown = issue.code === 'unrecognized_keys';
  return {
    path: unknown ? [...issue.path, ...issue.keys.slice(0, 1)] : issue.path,
    message: unknown ? UNKNOWN_OPTION : issue.message,
  };
}

/**
 * One of two forms of an option, told apart by whether `key` is given, as the client tells them
 * apart (`'accessToken' in auth`): the value is checked against its own form only, so a mistake is
 * named in that form (`auth.scopes`), not in the other.
 */
function formBy<A extends z.ZodObject, B extends z.ZodObject>(key: string, withKey: A, withoutKey: B, error: string) {
  return z.custom<z.input<A> | z.input<B>>(isObject, { error, abort: true }).check((ctx) => {
    const form = key in ctx.value ? withKey : withoutKey;
    const checked = form.safeParse(ctx.value);
    for (const issue of checked.error?.issues ?? [])
      ctx.issues.push({ code: 'custom', ...located(issue), input: ctx.value });
  });
}

/** `auth`, its form told by `accessToken`. Typed by its name, so that documents show `AuthOptions`. */
const Auth: z.ZodType<AuthOptions, AuthOptions> = formBy(
  'accessToken',
  AccessTokenAuth,
  ClientCredentialsAuth,
  'must be { accessToken } or { clientId, clientSecret, scopes }',
);

/**
 * The site's own API client: its id and secret, sent in the body of the ticket and refresh-token
 * grants (endpoint 23) and used as the HS256 key of SSO request tokens (endpoint 21).
 */
// Not strict: the client-credentials `auth` object (with its `scopes`) may be given as it is.
const ClientCredentials = z.object(
  {
    /** The API client id (`client_id`, the SSO `cid`). */
    clientId: nonEmpty,
    /** The API client secret. Never logged, never in an error message; at least 32 bytes for SSO. */
    clientSecret: nonEmpty,
  },
  { error: 'must be { clientId, clientSecret }' },
);
/**
 * The site's own API client: its id and secret, sent in the body of the ticket and refresh-token
 * grants (endpoint 23) and used as the HS256 key of SSO request tokens (endpoint 21).
 */
export interface ClientCredentials {
  /** The API client id (`client_id`, the SSO `cid`). */
  clientId: string;
  /** The API client secret. Never logged, never in an error message; at least 32 bytes for SSO. */
  clientSecret: string;
}

/** What the SSO service (endpoint 21) needs beyond the client's credentials. */
const SsoOptions = z.strictObject(
  {
    /** The SSO audience constant: `aud` of request tokens, `iss` of session tokens. */
    audience: nonEmpty,
    /** The organisation id: `iss` of request tokens. */
    organisationId: nonEmpty,
    /** Clock skew allowed when verifying session tokens, in seconds. Default 5. */
    clockToleranceSeconds: nonNegative.optional(),
  },
  { error: 'must be { audience, organisationId }' },
);
/** What the SSO service (endpoint 21) needs beyond the client's credentials. */
export interface SsoOptions {
  /** The SSO audience constant the platform gave you: `aud` of request tokens, `iss` of session tokens. */
  audience: string;
  /** Your organisation's id: `iss` of request tokens. */
  organisationId: string;
  /**
   * Clock skew allowed when checking a session token's times, in seconds.
   * @defaultValue 5
   */
  clockToleranceSeconds?: number;
}

/** Delays between retries: exponential from `initial`, at most `max`, with jitter (0-25% less). */
const RetryDelay = z.strictObject(
  {
    /** Delay before the first retry, in ms. Default 500. */
    initial: nonNegative.default(500),
    /** Upper bound of one delay, in ms. Default 8000. */
    max: nonNegative.default(8_000),
  },
  { error: 'must be { initial?, max? }' },
);
/**
 * Delays between retries when the platform asks for none (`Retry-After`): retry number n waits
 * `initial * 2^(n-1)` ms, at most `max`, less a random 0-25% (jitter).
 */
export interface RetryDelay {
  /**
   * Delay before the first retry, in milliseconds.
   * @defaultValue 500
   */
  initial?: number;
  /**
   * Upper bound of one delay, in milliseconds.
   * @defaultValue 8000
   */
  max?: number;
}

const LOGGER_METHODS = ['debug', 'info', 'warn', 'error'] as const;

const trueOrFalse = z.boolean({ error: 'must be true or false' });

/** `schema`, typed by the name of what it checks, so that documents and hovers show the name. */
function named<T>(schema: z.ZodType<T, T>): z.ZodType<T, T> {
  return schema;
}

/** The options of a client, in the order they are checked. */
const ClientOptions = z
  .strictObject(
    {
      /** `stage` or `production`: decides the path of endpoints whose path differs between them. */
      environment: named<Environment>(z.enum(['stage', 'production'], { error: "must be 'stage' or 'production'" })),
      /** The hosts of that environment; nothing is hard-coded. */
      hosts: named<Hosts>(Hosts.strict()),
      /** How requests are authenticated: a token, a token provider, or client credentials. */
      auth: Auth,
      /**
       * The site's own API client, for the ticket exchange (endpoint 23) and SSO (endpoint 21).
       * Default: `auth` when it is client credentials.
       */
      credentials: named<ClientCredentials>(ClientCredentials).optional(),
      /** The SSO service's audience and the organisation id, for endpoint 21. */
      sso: named<SsoOptions>(SsoOptions).optional(),
      /** Time allowed for each attempt to get an answer, in ms. Default 30 000. */
      timeout: timeoutMs.default(30_000),
      /** Retries after the first attempt (reads always; writes with `retryWrite`). Default 2. */
      maxRetries: nonNegativeInteger.default(2),
      /**
       * The longest `Retry-After` honoured, in ms. Default 60 000. When the platform asks for a longer
       * wait the call fails at once (a `RateLimitError` for 429) instead of hanging.
       */
      maxRetryAfter: nonNegative.default(60_000),
      /** Delays between retries. */
      retryDelay: RetryDelay.prefault({}),
      /** Check every answer against the endpoint's schema. Default `true`. */
      validateResponses: trueOrFalse.default(true),
      /** Plain http to a host beyond this machine (a test network's platform-mock). Default `false`. */
      allowInsecureHttp: trueOrFalse.default(false),
      /** Where to log requests, answers and retries (secrets redacted). Default: no logging. */
      logger: z
        .custom<Logger>(
          (value) => isObject(value) && LOGGER_METHODS.every((method) => isFunction(Reflect.get(value, method))),
          'must have debug, info, warn and error methods (console fits)',
        )
        .optional(),
      /**
       * The `fetch` to use. Default: the global `fetch`. It is called as `fetch` may be: with a URL and
       * an init for the first attempt of a call, with a `Request` for its retries.
       *
       * Not used by endpoint 6 (`meRetention.eligibleForCampaign`) nor by a `client.request` GET with a
       * `body`: Fetch cannot send a body on a GET, so in Node those go over node:http(s) with its global
       * agent (still through this client's timeout, abort, retries, logging and errors). A custom `fetch`
       * that adds a proxy, a CA or other TLS settings does not apply to them: configure
       * `https.globalAgent` (or `NODE_EXTRA_CA_CERTS`) for those instead.
       */
      fetch: z.custom<typeof fetch>(isFunction, 'must be a fetch function').optional(),
      /** Headers sent with every request; each value one a header can carry (no line break, no NUL). */
      headers: z
        .custom<Record<string, string>>(isObject, {
          error: 'must be an object of header names and values',
          abort: true,
        })
        .check((ctx) => {
          for (const [name, value] of Object.entries(ctx.value))
            if (typeof value === 'string' && !isHeaderValue(value))
              ctx.issues.push({ code: 'custom', path: [name], message: HEADER_VALUE_RULE, input: ctx.value });
        })
        .optional(),
    },
    { error: 'must be an object' },
  )
  .check((ctx) => {
    // Spec, Authentication 7: every exchange uses HTTPS. Tokens, tickets and the client secret cross
    // the network in clear over http, so it takes a word of the caller's beyond this machine.
    if (ctx.value.allowInsecureHttp) return;
    for (const [name, url] of Object.entries(ctx.value.hosts)) {
      const parsed = typeof url === 'string' ? parsedUrl(url) : undefined;
      if (parsed?.protocol === 'http:' && !isLoopbackHostname(parsed.hostname))
        ctx.issues.push({ code: 'custom', path: ['hosts', name], message: PLAIN_HTTP, input: url });
    }
  });

/**
 * Options of a {@link PlatformClient}. Checked when the client is made: a wrong one, or one it does
 * not know (a typo: `timeOut`), throws a `ClientConfigurationError` naming it. `environment`,
 * `hosts` and `auth` are required.
 *
 * Retries: a call is sent again, up to `maxRetries` times, when it got no answer (a network failure
 * or its `timeout`) or a 408, 429, 500, 502, 503 or 504, if it is a read (every GET), the
 * client-credentials grant, or a write called with `retryWrite: true`. Other writes, the ticket
 * exchange and the refresh grant are sent once. The wait: a 429's or 503's `Retry-After` (seconds or
 * an HTTP-date) when it is at most `maxRetryAfter` (longer: the call fails at once), else (none, or
 * one it cannot read) `retryDelay`.
 * Separately, a 401 is retried once, at once and for writes too, with a fresh token when `auth` can
 * give one (client credentials or a provider). Each call's {@link RequestOptions} can override
 * `timeout`, `maxRetries` and `retryWrite`.
 */
export interface PlatformClientOptions {
  /** `stage` or `production`: decides the path of the endpoints whose path differs between them. */
  environment: Environment;
  /** The hosts of that environment; nothing is hard-coded. */
  hosts: Hosts;
  /**
   * How API requests are authenticated: client credentials (the client gets, caches and renews its
   * token; `client.accessToken()` shows it), a fixed token, or a token provider.
   */
  auth: AuthOptions;
  /**
   * The site's own API client, for the ticket exchange and refresh grant (endpoint 23) and SSO
   * (endpoint 21).
   * @defaultValue `auth`, when it is client credentials
   */
  credentials?: ClientCredentials;
  /** The SSO audience and your organisation id, for `client.sso` (endpoint 21). */
  sso?: SsoOptions;
  /**
   * Time allowed for each attempt, from sending the request to reading the whole answer, in
   * milliseconds. An attempt that takes longer is abandoned and, if the call is retried, sent again;
   * the last one rejects with an `APITimeoutError`. An abandoned attempt's answer is closed unread.
   * With Node's own `fetch` (no `fetch` option), until an attempt of the client first times out,
   * its first attempts go without an `AbortSignal` (a signal costs Node's `fetch` more than the rest
   * of a call): one abandoned before its answer's headers came stays with `fetch` until they come
   * (Node gives up after 300 s). From that first timeout on, for every retry, in a browser and with a
   * `fetch` of yours (whose pool may hold few connections), each attempt is aborted when its time
   * runs out. At most 2147483647 (about 24.8 days), the longest a timer holds. A call's wait for
   * the client's own token (client credentials, or a provider) is not part of its attempts: the
   * token request is a call of its own, with this `timeout` and these retries whatever the call's
   * are, shared by the calls that wait for it; a call's `signal` stops that call's wait at once.
   * @defaultValue 30000
   */
  timeout?: number;
  /**
   * Retries after the first attempt (which calls and when: see above); `0` turns them off. The one
   * retry after a 401 is not counted.
   * @defaultValue 2
   */
  maxRetries?: number;
  /**
   * The longest `Retry-After` (of a 429 or 503) the client waits, in milliseconds. When the platform
   * asks for longer the call fails at once (a `RateLimitError` for 429) instead of hanging.
   * `Retry-After` is read in RFC 9110's forms only: a number of seconds (digits alone) or an
   * HTTP-date (a date already past: no wait); digits from 1704067200 (2024-01-01) on are read as an
   * epoch time, as ky reads them. Without one, the rate-limit headers (`RateLimit-Reset`,
   * `X-RateLimit-Reset`...) are read as seconds, or an epoch time. A value in no such form
   * (`1, 2`, `-5`, `soon`) asks for nothing: the retry waits `retryDelay`'s backoff.
   * @defaultValue 60000
   */
  maxRetryAfter?: number;
  /**
   * Delays between retries when the platform names none.
   * @defaultValue `{ initial: 500, max: 8000 }`
   */
  retryDelay?: RetryDelay;
  /**
   * Check every answer against the endpoint's schema; a mismatch rejects with a
   * `ResponseValidationError`. `false` trusts the platform and skips the check.
   * @defaultValue true
   */
  validateResponses?: boolean;
  /**
   * Send to an `http://` host beyond this machine (a platform-mock on a test network, a service of
   * a compose file). Without it such a host is refused: the spec's exchanges use HTTPS, and tokens,
   * tickets and the client secret would cross the network in clear. A loopback host (`localhost`,
   * `127.0.0.1`, `[::1]`) may use http without it.
   * @defaultValue false
   */
  allowInsecureHttp?: boolean;
  /**
   * Where to log requests (`debug`), answers (`debug`; a call's last answer outside 2xx `warn`),
   * retries and their reason (`info`) and a call's last failure without an answer (`error`), secrets
   * redacted; `console` fits.
   * @defaultValue no logging
   */
  logger?: Logger;
  /**
   * The `fetch` to use. It is called as `fetch` may be: with a URL and an init for the first attempt
   * of a call, with a `Request` for its retries.
   *
   * Not used by endpoint 6 (`meRetention.eligibleForCampaign`) nor by a `client.request` GET with a
   * `body`: Fetch cannot send a body on a GET, so in Node those go over node:http(s) with its global
   * agent (still through this client's timeout, abort, retries, logging and errors). A custom `fetch`
   * that adds a proxy, a CA or other TLS settings does not apply to them: configure
   * `https.globalAgent` (or `NODE_EXTRA_CA_CERTS`) for those instead.
   * @defaultValue the global `fetch`
   */
  fetch?: typeof fetch;
  /**
   * Headers sent with every request (a call's own `headers` win). A value with a line break, a NUL
   * or another character a header cannot carry is refused, naming the header (never its value).
   * `accept` and `content-type` are the SDK's (`application/json`, the latter with a body only): a
   * header of either name given here or with a call is not sent.
   */
  headers?: Record<string, string>;
}

/** Compiles only while `A` and `B` are the same type, down to their optional keys. */
type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : never) : never;
// The documented interfaces and the schemas that check them cannot part ways (a call's `accessToken`
// is the pipeline's to check).
const _documentedAsChecked: Same<PlatformClientOptions, z.input<typeof ClientOptions>> &
  Same<Omit<RequestOptions, 'accessToken'>, Omit<z.input<typeof CallOptions>, 'accessToken'>> &
  Same<RetryDelay, z.input<typeof RetryDelay>> &
  Same<SsoOptions, z.input<typeof SsoOptions>> &
  Same<Hosts, z.input<typeof Hosts>> &
  Same<ClientCredentials, z.input<typeof ClientCredentials>> &
  Same<ClientCredentialsAuth, z.input<typeof ClientCredentialsAuth>> &
  Same<AccessTokenAuth, z.input<typeof AccessTokenAuth>> = true;

/** The options as the client works with them: checked, with every default filled in. */
export type ClientSettings = z.output<typeof ClientOptions>;

/**
 * Checks the options and fills in their defaults.
 * @throws {@link ClientConfigurationError} naming the first option that is wrong
 */
export function parseOptions(options: PlatformClientOptions): ClientSettings {
  const parsed = ClientOptions.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const { path, message } = issue ? located(issue) : { path: [], message: 'is not valid' };
  // An option is named down to its key: a list's element is named by its list (`auth.scopes`).
  const list = path.findIndex((key) => typeof key === 'number');
  const option = fieldOf(list === -1 ? path : path.slice(0, list)) || 'options';
  throw new ClientConfigurationError(option, message);
}

/** Whether fetch takes `name` as a header's name. */
function isHeaderName(name: string): boolean {
  try {
    new Headers([[name, '']]);
    return true;
  } catch {
    return false;
  }
}

/**
 * A call's own headers: an object, a list of pairs or a `Headers` (which holds only what a header
 * can carry); each name one fetch takes, each value one a header can carry, a refusal naming the
 * header (`headers.x-api-key`) and never quoting its value.
 */
const CallHeaders = z
  .custom<RequestHeaders>(isObject, { error: 'must be an object of header names and values', abort: true })
  .check((ctx) => {
    if (typeof Headers !== 'undefined' && ctx.value instanceof Headers) return;
    // A list of pairs, a Map or any iterable of pairs (as fetch takes them), else an object's own members.
    const pairs: Iterable<unknown> =
      Symbol.iterator in ctx.value ? (ctx.value as Iterable<unknown>) : Object.entries(ctx.value);
    for (const pair of pairs) {
      const [name, value]: unknown[] = Array.isArray(pair) ? pair : [];
      if (typeof name !== 'string' || !isHeaderName(name))
        ctx.issues.push({ code: 'custom', path: [], message: 'must hold valid header names', input: ctx.value });
      // `undefined` takes the header out (as in ky): nothing is sent.
      else if (value === undefined) continue;
      else if (typeof value !== 'string')
        ctx.issues.push({ code: 'custom', path: [name], message: 'must be a string', input: ctx.value });
      else if (!isHeaderValue(value))
        ctx.issues.push({ code: 'custom', path: [name], message: HEADER_VALUE_RULE, input: ctx.value });
    }
  });

/**
 * The options of one call (`RequestOptions`), checked by the rules of the client's own options of
 * the same names, before anything is sent. Its `accessToken` is the pipeline's to check.
 */
export const CallOptions = z.strictObject(
  {
    // An AbortSignal of this realm: fetch and AbortSignal.any take no other. Null is none, as in a RequestInit.
    signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, 'must be an AbortSignal').nullish(),
    timeout: timeoutMs.optional(),
    maxRetries: nonNegativeInteger.optional(),
    retryWrite: trueOrFalse.optional(),
    headers: CallHeaders.optional(),
    // A user's token: the pipeline checks it by what the endpoint needs (a user, a bearer at all).
    accessToken: z.unknown().optional(),
  },
  // A key it does not know (a typo: `timout`) is named, as the client's options name one.
  { error: (issue) => (issue.code === 'unrecognized_keys' ? UNKNOWN_CALL_OPTION : 'must be an object') },
);
