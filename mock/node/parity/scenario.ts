/**
 * The words parity scenarios are written in: a scenario is a list of steps, each a request that is
 * sent as it is to the platform under test and to the reference platform, and the row of
 * `docs/assumptions.md` its answer tests. Scenarios are data (`scenarios/<resource>.ts`); the
 * runner (`run.ts`) reads them.
 */
import { type Endpoint, type Host, pathOf } from '../../../src/endpoints.js';
import { fillPath } from '../../../src/url.js';

/**
 * What a step does to the platform, which decides whether a run without `--allow-writes` sends it:
 *
 * - `read`: a `GET`, changes nothing;
 * - `grant`: a token or ticket grant of the authorization API (they expire on their own);
 * - `sso`: an operation of the SSO service on a session the run made;
 * - `refused`: a write the reference platform refuses before any change, in a shape the platform
 *   cannot take for a valid write (a malformed id, a missing required member); the runner checks
 *   that the reference refuses it and leaves its state unchanged, and reports first a target that
 *   accepts it;
 * - `write`: a change to the test account (`--account`), sent only with `--allow-writes`, each with
 *   the step that undoes it.
 */
export type Effect = 'read' | 'grant' | 'sso' | 'refused' | 'write';

/**
 * The bearer token a request carries:
 *
 * - `server`: the scenario's own token, granted for its `scopes`;
 * - `user`: a token of the test account, from a ticket (`--account`);
 * - `none`: no `Authorization` header;
 * - `unknown`: a token of the platform's form that it never issued;
 * - `malformed`: `Authorization` that is not a bearer token;
 * - `{ scopes }`: a server token granted for these scopes only (a missing scope).
 */
export type Auth = 'server' | 'user' | 'none' | 'unknown' | 'malformed' | { readonly scopes: readonly string[] };

/**
 * One request. Strings may hold `{name}` placeholders, filled from what earlier steps bound on the
 * same side (`bind`) and from the run (`{client_id}`, `{organisation}`, `{account_id}`,
 * `{absent_id}`, `{client_secret}`, which is never printed).
 */
export interface StepRequest {
  readonly host: Host;
  readonly method: string;
  /** The path on the host. */
  readonly path: string;
  /** Query pairs in order; a name may repeat. */
  readonly query?: readonly (readonly [string, string])[];
  /** A JSON body (sent with `content-type: application/json`). */
  readonly json?: unknown;
  /** A form-urlencoded body. */
  readonly form?: Readonly<Record<string, string>>;
  /** A body sent as it is, with its content type. */
  readonly raw?: { readonly contentType: string; readonly text: string };
  /** Headers besides `accept: application/json` and the body's content type. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The bearer token. Default: none ({@link call} gives the scenario's to the entries that take one). */
  readonly auth?: Auth;
  /** An SSO operation: the claims of its request token besides `cid`, `iss`, `aud` and the times, signed with the client's secret. */
  readonly sso?: {
    readonly claims: Readonly<Record<string, string>>;
    /** Sign with a secret that is not the client's (a request token that fails verification). */
    readonly wrongSecret?: boolean;
    /** Send the token as the query parameter `t` (identify, a browser's redirect), not as the body `{ t }`. */
    readonly inQuery?: boolean;
  };
}

/**
 * What is bound from an answer for later steps of the scenario on the same side: a JSON pointer
 * into the body, or the first element of an array whose members match `where`.
 */
export type Binding =
  | string
  | {
      readonly from: string;
      readonly where: Readonly<Record<string, string | number | boolean | null>>;
      readonly take: string;
    };

/** One step of a scenario. */
export interface Step {
  /** What it asks, in the spec's words: `get products by an id of the wrong shape`. */
  readonly name: string;
  /** The row of `docs/assumptions.md` its answer tests: `Section / Topic`, as {@link row} spells it. */
  readonly row: string;
  readonly effect: Effect;
  readonly request: StepRequest;
  /**
   * Which values of a successful answer are compared, besides the error's `code` and `field`:
   * `catalogue` for every member that is the target's own catalogue (ids, times, tokens and e-mails
   * by shape only), or the JSON pointers compared by value (`/sts`, `/item/purchase_allowed`).
   * Default: shapes only.
   */
  readonly values?: 'catalogue' | readonly string[];
  /**
   * Shape pointers (`*` for every element: `/item/user_products/*`) under which the answer holds the
   * test account's own records, which the reference's account does not have: there, null against a
   * value is not a difference (a subscription with an order against one without).
   */
  readonly accountRecords?: readonly string[];
  /** Names bound from the answer for the scenario's later steps. */
  readonly bind?: Readonly<Record<string, Binding>>;
  /** For a `write`: the step that undoes it, sent at the end of the scenario. */
  readonly undo?: Step;
  /** For a `refused` step: what a user should check on the stage if it accepts the request. */
  readonly check?: string;
  /** What this step needs beyond its scenario's: without it, it is skipped and says why. */
  readonly needs?: readonly Need[];
}

/**
 * What a scenario needs beyond the API and the authorization API; without it, it is skipped and
 * says why. With `account`, its sides also hold a `user` token of the test account.
 */
export type Need = 'account' | 'sso' | 'shop';

/** A scenario: the steps of one resource, in order, with what they need. */
export interface Scenario {
  /** Its name: the resource's, as the file is named (`products`, `user-products`). */
  readonly name: string;
  /** The scopes of its `server` token. */
  readonly scopes: readonly string[];
  readonly needs?: readonly Need[];
  readonly steps: readonly Step[];
}

/** A row of `docs/assumptions.md`: its section (the `##` heading) and its topic (the first cell). */
export function row(section: string, topic: string): string {
  return `${section} / ${topic}`;
}

/** An id of the platform's shape that no platform holds. */
export const ABSENT_ID = 'fa17ed00fa17ed00fa17ed00';

/**
 * The request of an entry of the endpoint table, on its host and stage path (its `{name}` segments
 * filled from `path`, as the SDK fills them), with what else is given; an entry that takes a bearer
 * token gets the scenario's (`server`) unless `auth` says otherwise.
 */
export function call(
  entry: Endpoint,
  { path, ...more }: Omit<StepRequest, 'host' | 'method' | 'path'> & { path?: Readonly<Record<string, string>> } = {},
): StepRequest {
  return {
    host: entry.host,
    method: entry.method,
    path: path ? fillPath(pathOf(entry, 'stage'), path).path : pathOf(entry, 'stage'),
    ...(entry.bearer ? { auth: 'server' as const } : {}),
    ...more,
  };
}

/** Query pairs from a record: one pair per member, in order. */
export function query(pairs: Readonly<Record<string, string>>): readonly (readonly [string, string])[] {
  return Object.entries(pairs);
}
