/**
 * The platform's options, declared once: each option's type and TSDoc, its default, its check (a
 * refusal is `400 invalid_parameter` naming the option, `login.maxFailedAttempts`), and how the
 * `platform-mock` command line spells it, explains it in its help and shows it at start-up
 * ({@link flagged}). `createPlatform` reads its options through {@link platformSettings}.
 */
import * as z from 'zod';
import type { Environment } from '../../src/endpoints.js';
import { ClockTime, LifetimeSeconds, MAX_LIFETIME_SECONDS } from './clock.js';
import type { StateDocumentInput } from './document.js';
import { JOURNAL_TEXT_BUDGET } from './journal.js';
import { DEFAULT_MAX_BODY_BYTES, MAX_BODY_BYTES_LIMIT } from './limits.js';
import type { Platform } from './types.js';
import { integerIn, validate } from './validate.js';

/** The default cap of each kind of record the platform drops on its own (the `retention` option). */
const DEFAULT_CAP = 10_000;
/** The default number of price periods one package or campaign holds at most. */
const DEFAULT_PRICE_PERIODS = 100;

/** Where the command line's help lists an option. */
export type HelpSection = 'server' | 'platform' | 'security' | 'command';

/** How the `platform-mock` command line spells an option, reads it, and speaks of it. */
export interface CommandLineFlag {
  /** The flag: `--ticket-lifetime`. */
  readonly flag: string;
  /** A one-letter alias: `-h`. */
  readonly short?: string;
  /** What the help calls its value: `<s>`. None: a switch, which sets the option to true (or false, with `negates`). */
  readonly value?: string;
  /** A switch that turns the option off (`--no-admin`). */
  readonly negates?: boolean;
  /** The help's words (a `\n` starts a line of its own, aligned under the first). */
  readonly help: string;
  /** Where the help lists it. */
  readonly section: HelpSection;
  /** The help's words for the default when it is not a value of the option (`the real time`); none: the declared default. */
  readonly defaultText?: string;
  /** How the flag's text becomes the option's value (a number from digits); as it is when absent. */
  readonly read?: z.ZodType;
  /** The environment variable read when the flag is not given. */
  readonly env?: string;
  /** The start-up line that shows it: its label, and what it shows (nothing: no line). */
  readonly startup?: {
    readonly label: string;
    readonly show: (value: unknown, platform: Platform) => string | undefined;
  };
}

/** The flag of each option schema that has one. */
const flags = new WeakMap<object, CommandLineFlag>();

/** Declares how the command line spells `schema`'s option: `flagged(z.boolean(), { flag: '--log', ... })`. */
export function flagged<S extends z.ZodType>(schema: S, flag: CommandLineFlag): S {
  flags.set(schema, flag);
  return schema;
}

/** How the command line spells an option, when it has a flag ({@link flagged}). */
export function flagOf(schema: z.core.$ZodType): CommandLineFlag | undefined {
  return flags.get(schema);
}

/** A flag's text as a whole number: digits only, no sign, no exponent (a negative one said to be so). */
export const Digits = z
  .string()
  .regex(/^-?\d+$/, { error: 'a whole number' })
  .refine((text) => !text.startsWith('-'), { error: 'a whole number of 0 or more' })
  .transform((text) => Number(text));

/** An ISO 8601 date-time with a zone (`Z` or an offset), so that it means the same instant everywhere. */
const ZonedDateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i, {
  error: 'an ISO 8601 date-time with a zone, e.g. 2030-01-01T00:00:00Z',
});

const nonEmpty = z.string({ error: 'Parameter must be a non-empty string' }).min(1, {
  error: 'Parameter must be a non-empty string',
});

/** The SSO service's login limits (the `login` option). */
const loginShape = {
  /** Wrong passwords in a row before an account freezes. Default 5. */
  maxFailedAttempts: flagged(integerIn(1, 1000).default(5), {
    flag: '--login-max-failures',
    value: '<n>',
    help: 'SSO: wrong passwords in a row before an account freezes',
    section: 'platform',
    read: Digits,
  }),
  /** How long a frozen account stays frozen, in seconds of the platform clock. Default 300. */
  freezeSeconds: flagged(integerIn(1, MAX_LIFETIME_SECONDS).default(300), {
    flag: '--login-freeze-seconds',
    value: '<s>',
    help: 'SSO: how long a frozen account stays frozen',
    section: 'platform',
    read: Digits,
  }),
  /**
   * Logged-in SSO sessions one account may hold at once, across its organisation's sites and apps
   * (an organisation's `max_sessions_per_account` overrides it). Default 5: two sites and a phone fit.
   */
  maxSessionsPerAccount: flagged(integerIn(1, 1000).default(5), {
    flag: '--max-sessions-per-account',
    value: '<n>',
    help: 'SSO: logged-in sessions one account may hold',
    section: 'platform',
    read: Digits,
  }),
};
const Login: z.ZodObject<typeof loginShape> = z.object(loginShape);

/** A cap on how many records of one kind the platform keeps. */
const cap = (flag: string, what: string) =>
  flagged(integerIn(1, 10_000_000).default(DEFAULT_CAP), {
    flag,
    value: '<n>',
    help: `${what} kept at most; over it, the oldest go first`,
    section: 'platform',
    read: Digits,
  });

/**
 * What the platform keeps, and for how long (the `retention` option): a server that runs for weeks
 * stays small. Records of no more use are dropped on the platform clock, a few each time one of
 * their kind is added (never a pass over the whole state), and each kind has a cap beyond which its
 * oldest go first.
 */
const retentionShape = {
  /** Access tokens (with their refresh tokens) kept at most; the oldest issued go first. Default 10000. */
  maxAccessTokens: cap('--max-access-tokens', 'access tokens (with their refresh tokens)'),
  /** Authorization tickets kept at most, used ones included; the oldest issued go first. Default 10000. */
  maxTickets: cap('--max-tickets', 'authorization tickets'),
  /** SSO sessions kept at most, terminated ones included; the oldest created go first. Default 10000. */
  maxSsoSessions: cap('--max-sso-sessions', 'SSO sessions'),
  /** The shop's browser sessions kept at most; the oldest opened go first. Default 10000. */
  maxShopSessions: cap('--max-shop-sessions', "the shop's browser sessions"),
  /**
   * E-mail addresses whose wrong passwords are counted at most; the one whose count changed longest
   * ago is forgotten first, unless it is frozen: a freeze is never lifted to make room. Default 10000.
   */
  maxWrongPasswordCounts: cap('--max-wrong-password-counts', 'e-mail addresses with wrong passwords counted'),
  /**
   * Change-log entries (endpoint 4) that requests add kept at most (the state document's own are
   * kept besides); the oldest logged go first. Default 10000: about
   * 13 MB of the state document's JSON with the longest message and `requested_by`, 69 MB when
   * every character of them is written as a six-byte JSON escape.
   */
  maxAccountChangeLogs: cap('--max-account-change-logs', 'change-log entries requests write to accounts (endpoint 4)'),
  /**
   * User-products that requests add kept at most (a shop purchase, endpoint 13, a sync of endpoint 19
   * add one; the state document's own, the seed's, are kept besides); the oldest added go first,
   * each with its orders and payment profiles. Default 10000.
   */
  maxUserProducts: cap('--max-user-products', 'user-products requests add (with their orders and payment profiles)'),
  /**
   * Accounts the shop's sign-up form adds kept at most (the state document's own are kept besides):
   * over it, a new one is refused and none is dropped, as an account is a user's, not a record of
   * use. Default 10000.
   */
  maxShopAccounts: flagged(integerIn(1, 10_000_000).default(DEFAULT_CAP), {
    flag: '--max-shop-accounts',
    value: '<n>',
    help: "accounts the shop's sign-up form adds; a new one over it is refused",
    section: 'platform',
    read: Digits,
  }),
  /**
   * Price periods one package or campaign holds at most: an update of prices (endpoint 1) that would
   * give it more is refused (`400 invalid_parameter`, field `price_periods`); none is dropped, as a
   * period is the catalogue's, not a record of use. Default 100: endpoint 1 adds a period for each
   * new payment option, subscription type, period type and length (40 combinations a length), so
   * every one for two lengths, and more. A period takes at most 100 `details` lines, so 100 periods
   * hold at most about 1.5 MB of JSON.
   */
  maxPricePeriods: flagged(integerIn(1, 10_000).default(DEFAULT_PRICE_PERIODS), {
    flag: '--max-price-periods',
    value: '<n>',
    help: 'price periods one package or campaign holds; an update of prices that would add more is refused',
    section: 'platform',
    read: Digits,
  }),
  /**
   * An SSO session no operation has found for this long, in seconds of the platform clock, ends:
   * it is not found any more (`session_not_found`), and is dropped. Default 86400 (a day).
   */
  ssoSessionIdleSeconds: flagged(LifetimeSeconds.default(86_400), {
    flag: '--sso-session-idle',
    value: '<s>',
    help: 'an SSO session not used for this long ends',
    section: 'platform',
    read: Digits,
  }),
  /**
   * An SSO session, and a shop session, ends this long after it was created, however much it is
   * used, in seconds of the platform clock. Default 2592000 (30 days).
   */
  sessionLifetimeSeconds: flagged(LifetimeSeconds.default(2_592_000), {
    flag: '--session-lifetime',
    value: '<s>',
    help: 'an SSO or shop session ends this long after it was created',
    section: 'platform',
    read: Digits,
  }),
};
const Retention: z.ZodObject<typeof retentionShape> = z.object(retentionShape);

const platformShape = {
  /** The initial state, and what `reset()` returns to: `demo` (default), `empty`, or a state document. */
  seed: flagged(z.custom<'demo' | 'empty' | StateDocumentInput>().default('demo'), {
    flag: '--seed',
    value: '<seed>',
    help: 'demo | empty | path to a state document (JSON)',
    section: 'server',
  }),
  /** Which environment's paths to serve (they differ for endpoint 10). Default `stage`. */
  environment: flagged(
    z
      .enum(['stage', 'production'] satisfies Environment[], { error: 'Parameter must be stage or production' })
      .default('stage'),
    {
      flag: '--environment',
      value: '<env>',
      help: 'stage | production: which paths to serve',
      section: 'platform',
      startup: { label: 'environment', show: (value) => String(value) },
    },
  ),
  /** The SSO audience constant; overrides the state document's `sso_audience` when given. */
  ssoAudience: flagged(nonEmpty.optional(), {
    flag: '--sso-audience',
    value: '<aud>',
    help: 'the SSO audience constant',
    section: 'platform',
    defaultText: "the state document's sso_audience",
    startup: {
      label: 'sso audience',
      show: (value, platform) => (typeof value === 'string' ? value : platform.snapshot().sso_audience),
    },
  }),
  /** Start the platform clock at this time instead of the real time; it keeps flowing from there. */
  now: flagged(ClockTime.optional(), {
    flag: '--now',
    value: '<date-time>',
    help: 'where the platform clock starts, e.g. 2030-01-01T00:00:00Z; it flows on',
    section: 'platform',
    defaultText: 'the real time',
    read: ZonedDateTime,
    startup: {
      label: 'clock started at',
      show: (value) => (typeof value === 'number' ? `${new Date(value).toISOString()} (--now)` : undefined),
    },
  }),
  /** Lifetime of authorization tickets, in seconds, on the platform clock. Default 60. */
  ticketLifetimeSeconds: flagged(LifetimeSeconds.default(60), {
    flag: '--ticket-lifetime',
    value: '<s>',
    help: 'lifetime of authorization tickets, in seconds',
    section: 'platform',
    read: Digits,
  }),
  /** Lifetime of issued access tokens, in seconds. Default 3600. */
  accessTokenLifetimeSeconds: flagged(LifetimeSeconds.default(3600), {
    flag: '--token-lifetime',
    value: '<s>',
    help: 'lifetime of access tokens, in seconds',
    section: 'platform',
    read: Digits,
  }),
  /**
   * Lifetime of issued refresh tokens, in seconds, on the platform clock: a refresh token is usable
   * once, until then. A spent or revoked one is kept until then too, so that its reuse is refused as
   * such (and revokes its family). Default 2592000 (30 days).
   */
  refreshTokenLifetimeSeconds: flagged(LifetimeSeconds.default(2_592_000), {
    flag: '--refresh-token-lifetime',
    value: '<s>',
    help: 'lifetime of refresh tokens, in seconds',
    section: 'platform',
    read: Digits,
  }),
  /**
   * How long a sync of customer subscriptions (endpoint 19) takes, in ms. Another sync of the same
   * organisation that arrives meanwhile is refused (`409 sync_in_progress`): bulk runs must be made
   * in sequence, and a test suite that runs them in parallel finds out. Default 50.
   */
  syncProcessingMs: flagged(integerIn(0, 60_000).default(50), {
    flag: '--sync-processing-ms',
    value: '<ms>',
    help: 'how long a sync of customer subscriptions takes, 0-60000',
    section: 'platform',
    read: Digits,
  }),
  /**
   * What `GET /external/api/v1/me` answers: `spec` (default) the spec's Signed-in user account
   * (endpoint 24, flat camelCase), or `documented` the `{ item: { ... } }` of the platform's public
   * documentation, so that a site written against that runs unchanged. `/external/api/v3/me`
   * always answers the documented shape.
   */
  meShape: flagged(z.enum(['spec', 'documented'], { error: 'Parameter must be spec or documented' }).default('spec'), {
    flag: '--me-shape',
    value: '<shape>',
    help: 'spec | documented: what GET /external/api/v1/me answers',
    section: 'platform',
  }),
  /**
   * The SSO service's login limits: wrong passwords in a row before an account freezes (default 5),
   * how long it stays frozen on the platform clock (default 300 s), and how many logged-in SSO
   * sessions one account may hold (default 5: two sites and a phone fit).
   */
  login: Login.prefault({}),
  /**
   * What the platform keeps, and for how long: caps on access tokens, tickets, SSO sessions, shop
   * sessions, wrong-password counts, change-log entries and user-products (10000 each by default;
   * over a cap the oldest go first) and on a package's price periods (100; more are refused), and
   * the lifetimes of sessions (an SSO session ends after a day unused, any session 30 days after it
   * was created). Expired tokens and tickets, and ended sessions, are dropped on the platform clock.
   */
  retention: Retention.prefault({}),
  /** How many requests the journal keeps, an integer of 0 (none) or more; the oldest go first. Default 1000. */
  journalLimit: flagged(integerIn(0, Number.MAX_SAFE_INTEGER, 'an integer of 0 or more').default(1000), {
    flag: '--journal-limit',
    value: '<n>',
    help: 'requests the journal (/__admin/requests) keeps; the oldest go first',
    section: 'platform',
    read: Digits,
  }),
  /**
   * How much text the journal keeps in all (URLs, header values and bodies), in characters; over it
   * the oldest entries go first, as over `journalLimit`. Default 16 Mi (16777216). The standalone
   * server gives each namespace a share of one budget instead (docs/shared-server.md).
   */
  journalTextLimit: flagged(
    integerIn(0, Number.MAX_SAFE_INTEGER, 'an integer of 0 or more').default(JOURNAL_TEXT_BUDGET),
    {
      flag: '--journal-text-limit',
      value: '<chars>',
      help: 'characters of text (URLs, headers, bodies) the journal keeps in all',
      section: 'platform',
      read: Digits,
    },
  ),
  /**
   * The path the platform is served under, such as `/_ns/team-a` (a namespace of the standalone
   * server): a request outside it is `404 not_found`, routes, faults and the journal's `path` see
   * the path after it, and every URL the platform writes keeps it (the shop's links, forms and
   * redirects, its cookies' `Path`, the served OpenAPI document's servers). Default `''`: the root.
   */
  basePath: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, {
      error: 'Parameter must be empty or a path of one or more segments without a trailing slash, e.g. /_ns/a',
    })
    .refine((path) => !path.split('/').some((s) => s === '.' || s === '..'), {
      error: 'Parameter must not hold a dot segment',
    })
    .default(''),
  /** Called with an unexpected exception before it is answered as `500 internal_server_error`. */
  onError: z.custom<(error: unknown) => void>().optional(),
  /**
   * The largest request body accepted, in bytes; a larger one is refused with `413
   * payload_too_large` as soon as it is known to be larger (from `Content-Length`, or while
   * reading). Default 1 MiB (1048576); at most 256 MiB (268435456).
   */
  maxBodyBytes: flagged(
    integerIn(1, MAX_BODY_BYTES_LIMIT, `an integer from 1 to ${MAX_BODY_BYTES_LIMIT} (256 MiB)`).default(
      DEFAULT_MAX_BODY_BYTES,
    ),
    {
      flag: '--max-body-bytes',
      value: '<n>',
      help: 'largest request body, up to 268435456 (256 MiB)',
      section: 'security',
      read: Digits,
    },
  ),
  /** Serve the `/__admin` test tools. Default true; false answers them `404 not_found`. */
  admin: flagged(z.boolean().default(true), {
    flag: '--no-admin',
    negates: true,
    help: 'no /__admin at all (404)',
    section: 'security',
  }),
  /**
   * When set, `/__admin` requires `Authorization: Bearer <adminToken>` (else `401 invalid_token`);
   * on a standalone server, so does a request that makes a namespace (else `403 namespace_not_open`).
   */
  adminToken: flagged(nonEmpty.optional(), {
    flag: '--admin-token',
    value: '<token>',
    help: '/__admin and opening a namespace need Authorization: Bearer <token>',
    section: 'security',
    env: 'PLATFORM_MOCK_ADMIN_TOKEN',
  }),
  /**
   * When the shop sends a user back to a return URL whose domain has no ticket configuration, show
   * a "you are leaving" page with a link instead of redirecting at once (the spec's default, an
   * open redirect). Default false.
   */
  returnInterstitial: flagged(z.boolean().default(false), {
    flag: '--return-interstitial',
    help: 'a "you are leaving" page instead of a redirect to an unregistered domain',
    section: 'security',
  }),
};

/** The schema of `createPlatform`'s options: their checks and defaults. */
export const PlatformOptionsSchema: z.ZodObject<typeof platformShape> = z.object(platformShape);

/**
 * Options of `createPlatform`.
 * @interface
 */
export type PlatformOptions = z.input<typeof PlatformOptionsSchema>;

/** The options of a platform, checked, with every default filled in: what its routes read. */
export type PlatformSettings = z.output<typeof PlatformOptionsSchema>;

/** The SSO service's login limits, as the platform's settings hold them. */
export type LoginLimits = PlatformSettings['login'];

/** What the platform keeps, and for how long, as the platform's settings hold it. */
export type RetentionSettings = PlatformSettings['retention'];

/** Checks `options` and fills in the defaults; a HttpError names the option that is wrong (`login.freezeSeconds`). */
export function platformSettings(options: PlatformOptions): PlatformSettings {
  return validate(PlatformOptionsSchema, options);
}
