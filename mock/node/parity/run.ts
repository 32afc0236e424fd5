/**
 * `runParity`: the scenarios sent to the platform under test and to a reference platform in
 * process seeded from a capture of its catalogue (or, with `snapshots`, compared with answers a
 * team recorded), step by step, each answer compared with the other. The report names each step
 * where the two differ, with the row of `docs/assumptions.md` the step tests.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jwtVerify, SignJWT } from 'jose';
import { accessToken, generateTicket, getMeDocumented, type Host, pathOf } from '../../../src/endpoints.js';
import { APIConnectionError, APIError, AuthenticationError } from '../../../src/errors.js';
import { secretsSent } from '../../../src/quoted-secrets.js';
import { withoutTrailingSlashes } from '../../../src/url.js';
import type { StateDocument, StateDocumentInput } from '../../core/document.js';
import type { Platform } from '../../core/types.js';
import { createPlatform } from '../../platform.js';
import { ALL_SCOPES } from '../../seeds/demo.js';
import { captureCatalogue } from '../capture.js';
import { jsonSyntaxError } from '../json-syntax.js';
import { writeAtomically } from '../state-file.js';
import { type Answer, compareAnswers, type Difference, type Extra, meaningOf, type Values } from './compare.js';
import { Normaliser } from './normalise.js';
import { ABSENT_ID, type Auth, type Binding, call, type Scenario, type Step, type StepRequest } from './scenario.js';
import { SCENARIOS } from './scenarios/index.js';
import { Connections, send, UnreachableError } from './send.js';

export { UnreachableError } from './send.js';

/** The platform under test: its hosts and a client of one of its organisations. */
export interface ParityTarget {
  /** `{base_url}`, the external API. */
  readonly api: string;
  /** `{auth_api_url}`, the authorization API. */
  readonly auth: string;
  /** `{sso_url}`: the SSO scenarios run only with it. */
  readonly sso?: string;
  /** `{shop_url}`: the shop's scenario runs only with it. */
  readonly shop?: string;
  readonly clientId: string;
  /** Never printed, never written. */
  readonly clientSecret: string;
  /** The client's organisation: 24 hex digits. */
  readonly organisation: string;
}

/** Options of {@link runParity}. */
export interface ParityOptions {
  /** The platform under test; without it, `snapshots` must be given. */
  readonly target?: ParityTarget;
  /** Compare the reference platform with the answers recorded in this directory (`record`), sending nothing elsewhere. */
  readonly snapshots?: string;
  /** Write the target's answers, normalised, to this directory (a snapshot per scenario, and the catalogue). */
  readonly record?: string;
  /**
   * A test account of the organisation (24 hex digits): the scenarios that need a user (tickets,
   * user tokens, SSO log-in) run with it, and with `allowWrites`, the writes go to it.
   */
  readonly account?: string;
  /** Send the writes (each undone at the end of its scenario), to `account`. Default false. */
  readonly allowWrites?: boolean;
  /** The SSO audience constant (`aud` of request tokens). Default `pw-sso`. */
  readonly ssoAudience?: string;
  /** The shop's marketplace for the shop's scenario: `{groupId}/{marketplaceId}`. */
  readonly marketplace?: string;
  /** List every request the run would send, and send none. */
  readonly dryRun?: boolean;
  /** The time for a whole answer of the target, in ms. Default 30000. */
  readonly timeoutMs?: number;
  /** The scenarios to run, by name (`products`, `tickets`; docs/parity.md lists them). Default all. */
  readonly only?: readonly string[];
  /** Told after each step. */
  readonly progress?: (progress: ParityProgress) => void;
}

/** Where a run is: a step done, of how many. */
export interface ParityProgress {
  readonly scenario: string;
  readonly step: string;
  readonly done: number;
  readonly total: number;
}

/** What came of one step. */
export interface StepResult {
  readonly scenario: string;
  readonly step: string;
  /** The row of `docs/assumptions.md` it tests. */
  readonly row: string;
  /** The request as written in the scenario (`{name}` where a value of the run goes). */
  readonly request: string;
  readonly outcome: 'same' | 'differs' | 'skipped';
  /** Why it was skipped. */
  readonly reason?: string;
  /** The statuses answered, when it was sent. */
  readonly statuses?: { readonly target: number; readonly reference: number };
  readonly differences: readonly Difference[];
  readonly extras: readonly Extra[];
}

/** A difference, with the step that found it. */
export interface StepDifference extends Difference {
  readonly scenario: string;
  readonly step: string;
  readonly row: string;
  readonly request: string;
}

/** A member only the target answers, with its step. */
export interface StepExtra extends Extra {
  readonly scenario: string;
  readonly step: string;
  readonly request: string;
}

/** A write the run sent to the test account, and whether its undoing was answered as a success. */
export interface WriteRecord {
  readonly scenario: string;
  readonly step: string;
  readonly request: string;
  readonly undo: string;
  readonly undone: boolean;
}

/** What a run found. */
export interface ParityReport {
  /** What was compared with the reference: the API's URL, or `snapshots <dir>`. */
  readonly target: string;
  /** Every step of every scenario run, in order. */
  readonly results: readonly StepResult[];
  /**
   * Every difference. A write the reference refuses and the target accepted comes first (kind
   * `accepted`): check the stage.
   */
  readonly differences: readonly StepDifference[];
  /** Members only the target answers: "the platform answers more than the document says". */
  readonly extras: readonly StepExtra[];
  /** The writes sent (with `allowWrites`) and their undoing. */
  readonly writes: readonly WriteRecord[];
  /** With `dryRun`: every request the run would send, secrets left as `{client_secret}`. */
  readonly planned: readonly string[];
  readonly durationMs: number;
}

/** A request, filled in for one side. */
interface Resolved {
  readonly host: Host;
  readonly method: string;
  readonly path: string;
  readonly query: readonly (readonly [string, string])[];
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** A side of the comparison: something that answers a filled-in request. */
interface Side {
  send(request: Resolved): Promise<Answer>;
}

/** Whether a step's token is the test account's. */
function usesUser(auth: Auth | undefined): boolean {
  return auth === 'user';
}

/** Why a step cannot be sent on a side (a name no earlier step bound, a token not granted): it is skipped, saying so. */
class Unsendable extends Error {}

const DEFAULT_AUDIENCE = 'pw-sso';
/** The reference's marketplace when the run names none. */
const DEFAULT_MARKETPLACE = 'parity/main';
const DEFAULT_TIMEOUT_MS = 30_000;
/** A bearer token of the platform's form (43 base64url characters) that no platform issued. */
const UNKNOWN_TOKEN = 'UnknownTokenOfTheRightShapeFromParity0123456';
/** A secret that is no client's: a request token signed with it fails verification. */
const WRONG_SECRET = 'parity-wrong-secret-0123456789abcdef0123456789';
/** The client's secret in a printed request. */
const SECRET = '{client_secret}';

/** Reads a text body: JSON when the content type says so, else the text; `null` when empty. */
function bodyOf(contentType: string | undefined, text: string): unknown {
  if (text === '') return null;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** The URL of a request on a host's base URL (which may carry a path). */
function urlOf(base: string, request: Resolved): URL {
  const url = new URL(`${withoutTrailingSlashes(base)}${request.path}`);
  for (const [name, value] of request.query) url.searchParams.append(name, value);
  return url;
}

/** The platform under test, over HTTP. */
class HttpSide implements Side {
  readonly connections = new Connections();

  constructor(
    private readonly hosts: Readonly<Record<Host, string | undefined>>,
    private readonly timeoutMs: number,
  ) {}

  async send(request: Resolved): Promise<Answer> {
    const base = this.hosts[request.host];
    if (base === undefined) throw new Error(`no ${request.host} host given`);
    const received = await send(
      urlOf(base, request),
      request.method,
      request.headers,
      request.body,
      this.timeoutMs,
      this.connections,
    );
    // A host under a path (a namespace of a shared platform-mock, a gateway's prefix) redirects
    // under it; the reference serves at its root: the path compared is the one after the host's.
    const under = withoutTrailingSlashes(new URL(base).pathname);
    const meant = meaningOf((name) => received.header(name));
    const headers =
      under !== '' && meant.location?.startsWith(`${under}/`)
        ? { ...meant, location: meant.location.slice(under.length) }
        : meant;
    return { status: received.status, headers, body: bodyOf(headers['content-type'], received.text) };
  }
}

/** The reference platform, in process. */
class ReferenceSide implements Side {
  constructor(readonly platform: Platform) {}

  async send(request: Resolved): Promise<Answer> {
    const url = urlOf('http://127.0.0.1', request);
    const carries = request.method !== 'GET' && request.method !== 'HEAD';
    const response = await this.platform.handle(
      new Request(url, {
        method: request.method,
        headers: request.headers,
        ...(carries && request.body !== undefined ? { body: request.body } : {}),
      }),
      { ip: '127.0.0.1', ...(request.body === undefined ? {} : { body: request.body }) },
    );
    const headers = meaningOf((name) => response.headers.get(name));
    return { status: response.status, headers, body: bodyOf(headers['content-type'], await response.text()) };
  }
}

/** A JSON pointer's value in `value`, or undefined. */
function at(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let node = value;
  for (const part of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Reflect.get(node, part.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return node;
}

/** What a binding takes from an answer's body: a string or a number; undefined when absent. */
function bound(body: unknown, binding: Binding): Bound | undefined {
  let value: unknown;
  if (typeof binding === 'string') value = at(body, binding);
  else {
    const list = at(body, binding.from);
    const found = Array.isArray(list)
      ? list.find((item) => Object.entries(binding.where).every(([k, v]) => at(item, `/${k}`) === v))
      : undefined;
    value = found === undefined ? undefined : at(found, binding.take);
  }
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

/** A value bound by a step, or given by the run. */
type Bound = string | number;

/** A template's `{name}` placeholders filled from `vars`; an unknown name throws {@link Unsendable}. */
function fill(template: string, vars: ReadonlyMap<string, Bound>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = vars.get(name);
    if (value === undefined) throw new Unsendable(`no earlier step answered {${name}}`);
    return String(value);
  });
}

/** A JSON string that is one placeholder of a number, with an amount added: `{price+1}`. */
const NUMBER_PLACEHOLDER = /^\{([a-z_]+)(?:\+(\d{1,6}))?\}$/;

/**
 * Every string of a JSON value filled ({@link fill}); a string that is only the placeholder of a
 * number (`{price}`, `{price+1}`) becomes that number, the amount added.
 */
function fillJson(value: unknown, vars: ReadonlyMap<string, Bound>): unknown {
  const number = typeof value === 'string' ? NUMBER_PLACEHOLDER.exec(value) : null;
  const bound = number ? vars.get(number[1] ?? '') : undefined;
  if (typeof bound === 'number') return bound + Number(number?.[2] ?? 0);
  // An amount added to what is not a number (a price the complex model does not answer): no text
  // to send in its place, so the step is skipped, as one whose placeholder no step answered.
  if (number?.[2] !== undefined)
    throw new Unsendable(
      bound === undefined ? `no earlier step answered {${number[1]}}` : `{${number[1]}} is not a number`,
    );
  if (typeof value === 'string') return fill(value, vars);
  if (Array.isArray(value)) return value.map((v) => fillJson(v, vars));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillJson(v, vars)]));
  return value;
}

/** The request as a scenario writes it, for reports and the dry run: `GET /path?name={value}`, then its body. */
function describeRequest(request: StepRequest): string {
  const query = request.query?.length ? `?${request.query.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
  const body =
    request.json !== undefined
      ? ` ${JSON.stringify(request.json)}`
      : request.form
        ? ` form ${new URLSearchParams(request.form).toString().replaceAll('%7B', '{').replaceAll('%7D', '}')}`
        : request.raw
          ? ` ${request.raw.contentType} ${JSON.stringify(request.raw.text)}`
          : request.sso
            ? ` ${request.sso.inQuery ? '?t=' : '{t: '}signed${request.sso.wrongSecret ? ' with a wrong secret' : ''} ${JSON.stringify(request.sso.claims)}${request.sso.inQuery ? '' : '}'}`
            : '';
  return `${request.method} {${request.host}}${request.path}${query}${body}`;
}

/** What one side of a run holds: what its steps bound, and its tokens. */
interface SideState {
  readonly side: Side;
  readonly vars: Map<string, Bound>;
  readonly tokens: Map<string, string>;
}

/** A recorded scenario: each step's normalised answer, or why it was skipped. */
interface RecordedScenario {
  readonly scenario: string;
  readonly skipped?: string;
  readonly steps: Record<string, { readonly request: string; readonly answer: Answer } | { readonly skipped: string }>;
}

/** The run's description in a snapshot directory (`parity.json`). */
interface SnapshotMeta {
  readonly package: 'subscription-platform-sdk';
  readonly format: 1;
  readonly organisation: string;
  readonly account: string | null;
  /** Whether the test account has a date of birth on the target. */
  readonly accountBorn: boolean;
  readonly ssoAudience: string;
  readonly marketplace: string | null;
  readonly sso: boolean;
  readonly shop: boolean;
  readonly allowWrites: boolean;
}

/** The catalogue a snapshot directory keeps (`catalogue.json`): the records the reference is seeded with. */
type SnapshotCatalogue = Pick<
  StateDocumentInput,
  'products' | 'product_sharing' | 'cancellation_reasons' | 'titles' | 'organisations'
>;

/** The reference's own client: every scope, a provision service, the target's client id and secret. */
function referenceDocument(
  catalogue: SnapshotCatalogue,
  identity: Identity,
  marketplace: string | undefined,
): StateDocumentInput {
  const org = identity.organisation.toLowerCase();
  const [group, market] = (marketplace ?? DEFAULT_MARKETPLACE).split('/');
  return {
    sso_audience: identity.audience,
    organisations: catalogue.organisations,
    clients: [
      {
        client_id: identity.clientId,
        client_secret: identity.clientSecret,
        organisation_id: org,
        scopes: [...ALL_SCOPES],
        provision_service: 'parity-provision',
        name: 'The client of the parity run',
        landing_url: 'http://localhost:3000/sso/landing',
      },
    ],
    accounts: identity.account
      ? [
          {
            id: identity.account,
            organisation_id: org,
            email: 'parity-account@example.invalid',
            first_name: 'Parity',
            last_name: 'Account',
            customer_number: 'PARITY-1',
            status: 'active',
            verified: true,
            ...(identity.accountBorn ? { date_of_birth: '1980-01-01' } : {}),
          },
        ]
      : [],
    products: catalogue.products,
    product_sharing: catalogue.product_sharing,
    cancellation_reasons: catalogue.cancellation_reasons,
    titles: catalogue.titles,
    marketplaces: [
      {
        group_id: group ?? 'parity',
        marketplace_id: market ?? 'main',
        name: 'Shop',
        client_id: identity.clientId,
        product_codes: [],
      },
    ],
  };
}

/** The catalogue part of a captured document. */
function catalogueOf(document: StateDocumentInput): SnapshotCatalogue {
  return {
    organisations: document.organisations,
    products: document.products,
    product_sharing: document.product_sharing,
    cancellation_reasons: document.cancellation_reasons,
    titles: document.titles,
  };
}

/** A fetch that never follows a redirect: the SDK's capture sends the client's secret to no other host. */
const fetchNoRedirect: typeof fetch = (input, init) => fetch(input, { ...init, redirect: 'manual' });

/** A grant the side refused: its status and code. */
interface Refused {
  readonly refused: string;
}

/** A server token for `scopes` (cached per side), or why the side refused it. */
async function grant(state: SideState, scopes: readonly string[]): Promise<string | Refused> {
  const key = scopes.join(' ');
  const cached = state.tokens.get(`scopes:${key}`);
  if (cached) return cached;
  const answer = await state.side.send(
    resolve(
      {
        host: 'auth',
        method: 'POST',
        path: pathOf(accessToken, 'stage'),
        json: { grant_type: 'none', client_id: '{client_id}', client_secret: SECRET, scope: key },
      },
      state,
    ),
  );
  const token = at(answer.body, '/access_token');
  if (answer.status === 200 && typeof token === 'string') {
    state.tokens.set(`scopes:${key}`, token);
    return token;
  }
  return { refused: `${answer.status} ${String(at(answer.body, '/code') ?? '')}`.trim() };
}

/** A user token of the test account: a ticket for it (endpoint 22, form a), exchanged (23); `!reason` when refused. */
async function userToken(state: SideState): Promise<string> {
  const server = await grant(state, [generateTicket.scopes[0] ?? '']);
  if (typeof server !== 'string') return `!the client gets no ticket token: ${server.refused}`;
  const issued = await state.side.send(
    resolve(
      {
        host: 'auth',
        method: 'POST',
        path: pathOf(generateTicket, 'stage'),
        json: { accountId: '{account_id}', clientId: '{client_id}' },
      },
      state,
      `Bearer ${server}`,
    ),
  );
  const ticket = at(issued.body, '/ticket');
  if (typeof ticket !== 'string') return `!a ticket was refused: ${issued.status}`;
  const exchanged = await state.side.send(
    resolve(
      {
        host: 'auth',
        method: 'POST',
        path: pathOf(accessToken, 'stage'),
        json: { grant_type: 'ticket', ticket, client_id: '{client_id}', client_secret: SECRET },
      },
      state,
    ),
  );
  const token = at(exchanged.body, '/access_token');
  return typeof token === 'string' ? token : `!the ticket exchange was refused: ${exchanged.status}`;
}

/**
 * The secrets a filled-in request sends (its bearer token, its secret headers, query parameters and
 * body members, the secret claims of an SSO request token), which no snapshot may quote.
 */
function secretsOf(request: Resolved): string[] {
  const authorization = request.headers.authorization;
  const url = new URL(request.path, 'http://parity.invalid');
  for (const [name, value] of request.query) url.searchParams.append(name, value);
  return secretsSent({
    token: authorization?.replace(/^Bearer /i, ''),
    headers: request.headers,
    url: url.href,
    json: bodyMembers(request),
  });
}

/** A request's body as members: its JSON, or its form's parameters; undefined for other bodies. */
function bodyMembers(request: Resolved): unknown {
  if (request.body === undefined) return undefined;
  if ((request.headers['content-type'] ?? '').includes('x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(request.body));
  try {
    return JSON.parse(request.body) as unknown;
  } catch {
    return undefined;
  }
}

/** A request filled in for one side: placeholders, token, body. */
function resolve(request: StepRequest, state: SideState, bearer?: string): Resolved {
  const headers: Record<string, string> = { accept: 'application/json', ...(request.headers ?? {}) };
  let body: string | undefined;
  if (request.json !== undefined) {
    body = JSON.stringify(fillJson(request.json, state.vars));
    headers['content-type'] ??= 'application/json';
  } else if (request.form) {
    body = new URLSearchParams(fillJson(request.form, state.vars) as Record<string, string>).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (request.raw) {
    body = request.raw.text;
    headers['content-type'] ??= request.raw.contentType;
  }
  const token = bearer ?? tokenOf(request.auth ?? 'none', state);
  if (token !== undefined) headers.authorization = token;
  return {
    host: request.host,
    method: request.method,
    path: fill(request.path, state.vars),
    query: (request.query ?? []).map(([k, v]) => [k, fill(v, state.vars)] as const),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, fill(v, state.vars)])),
    ...(body === undefined ? {} : { body }),
  };
}

/** The `Authorization` header of an `auth`; `{scopes}` tokens are granted before the step. */
function tokenOf(auth: Auth, state: SideState): string | undefined {
  if (auth === 'none') return undefined;
  if (auth === 'unknown') return `Bearer ${UNKNOWN_TOKEN}`;
  if (auth === 'malformed') return 'Basic cGFyaXR5OnBhcml0eQ==';
  const key = typeof auth === 'string' ? auth : `scopes:${auth.scopes.join(' ')}`;
  const token = state.tokens.get(key);
  if (token === undefined) throw new Unsendable(`no ${key} token`);
  return `Bearer ${token}`;
}

/** Who a run acts as: the client, its organisation, the test account, the SSO audience. */
interface Identity {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly organisation: string;
  readonly account?: string;
  readonly audience: string;
  /** Whether the test account has a date of birth on the target (the reference's account is given one too). */
  readonly accountBorn?: boolean;
}

/** The values every request of a run may name. */
function baseVars(identity: Identity, options: ParityOptions): Map<string, Bound> {
  const vars = new Map<string, Bound>([
    ['client_id', identity.clientId],
    ['client_secret', identity.clientSecret],
    ['organisation', identity.organisation],
    ['absent_id', ABSENT_ID],
    ['marketplace', options.marketplace ?? DEFAULT_MARKETPLACE],
    // New each run: what a target keeps between runs (a wrong-password count) is then never this run's.
    ['run', crypto.randomUUID().slice(0, 8)],
  ]);
  if (identity.account) vars.set('account_id', identity.account);
  return vars;
}

/** A run: the two sides, the scenarios, what was found. */
class Run {
  readonly results: StepResult[] = [];
  readonly writes: WriteRecord[] = [];
  readonly recorded: RecordedScenario[] = [];
  private done = 0;
  private readonly total: number;

  constructor(
    scenarios: readonly Scenario[],
    private readonly reference: ReferenceSide,
    private readonly target: HttpSide | ReadonlyMap<string, RecordedScenario>,
    private readonly identity: Identity,
    private readonly options: ParityOptions,
    private readonly hosts: { sso: boolean; shop: boolean },
    private readonly normaliser: Normaliser | undefined,
  ) {
    this.total = scenarios.reduce((n, s) => n + s.steps.length + s.steps.filter((step) => step.undo).length, 0);
  }

  /** Why a scenario or a step cannot run in this run, if it cannot. */
  private missing(needing: { readonly needs?: Scenario['needs'] }): string | undefined {
    return missingFor(needing, { account: Boolean(this.identity.account), ...this.hosts });
  }

  async scenario(scenario: Scenario): Promise<void> {
    const recorded = this.target instanceof Map ? this.target.get(scenario.name) : undefined;
    const record: RecordedScenario = { scenario: scenario.name, steps: {} };
    const why =
      this.missing(scenario) ??
      (this.target instanceof Map ? (recorded ? recorded.skipped : 'not in the snapshots') : undefined);
    const sides = why === undefined ? await this.setUp(scenario) : why;
    if (typeof sides === 'string') {
      for (const step of scenario.steps) this.skip(scenario, step, sides);
      this.recorded.push({ ...record, skipped: sides });
      return;
    }
    const [reference, target] = sides;
    const sent: Step[] = [];
    for (const step of scenario.steps) {
      if (await this.step(scenario, step, reference, target, recorded, record)) sent.push(step);
      else if (step.undo) this.skip(scenario, step.undo, 'its write was not sent', record);
    }
    for (const step of sent.reverse()) {
      const undo = step.undo;
      if (!undo) continue;
      const answered = (await this.step(scenario, undo, reference, target, recorded, record))?.statuses?.target;
      this.writes.push({
        scenario: scenario.name,
        step: step.name,
        request: describeRequest(step.request),
        undo: describeRequest(undo.request),
        undone: answered !== undefined && answered >= 200 && answered < 300,
      });
    }
    this.recorded.push(record);
  }

  /** The tokens each side needs for a scenario; a reason to skip it when the target refuses one. */
  private async setUp(scenario: Scenario): Promise<[SideState, SideState | undefined] | string> {
    const reference: SideState = {
      side: this.reference,
      vars: baseVars(this.identity, this.options),
      tokens: new Map(),
    };
    const target: SideState | undefined =
      this.target instanceof HttpSide
        ? { side: this.target, vars: baseVars(this.identity, this.options), tokens: new Map() }
        : undefined;
    for (const state of [reference, target]) {
      if (!state) continue;
      const server = await grant(state, scenario.scopes);
      if (typeof server !== 'string')
        return `the client gets no token for ${scenario.scopes.join(' ')}: ${server.refused}`;
      state.tokens.set('server', server);
      if (this.identity.account && scenario.steps.some((s) => usesUser(s.request.auth))) {
        const user = await userToken(state);
        if (user.startsWith('!')) return `no user token for the test account: ${user.slice(1)}`;
        state.tokens.set('user', user);
      }
    }
    return [reference, target];
  }

  /** An SSO request token, signed. */
  private async ssoToken(request: StepRequest, state: SideState): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims = Object.fromEntries(
      Object.entries(request.sso?.claims ?? {}).map(([k, v]) => [k, fill(v, state.vars)]),
    );
    const secret = request.sso?.wrongSecret ? WRONG_SECRET : this.identity.clientSecret;
    return new SignJWT({ ...claims, cid: this.identity.clientId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(this.identity.organisation)
      .setAudience(this.identity.audience)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 10)
      .sign(new TextEncoder().encode(secret));
  }

  /** An SSO answer's session token read: its claims when it verifies with the client's secret. */
  private async ssoClaims(answer: Answer): Promise<Answer> {
    const t = at(answer.body, '/t');
    if (typeof t !== 'string') return answer;
    try {
      const { payload } = await jwtVerify(t, new TextEncoder().encode(this.identity.clientSecret), {
        algorithms: ['HS256'],
        clockTolerance: 120,
      });
      return { ...answer, body: payload };
    } catch {
      return { ...answer, body: 'a session token that does not verify with the client secret' };
    }
  }

  private skip(scenario: Scenario, step: Step, reason: string, record?: RecordedScenario): void {
    this.results.push({
      scenario: scenario.name,
      step: step.name,
      row: step.row,
      request: describeRequest(step.request),
      outcome: 'skipped',
      reason,
      differences: [],
      extras: [],
    });
    if (record) record.steps[step.name] = { skipped: reason };
    this.tick(scenario, step);
  }

  private tick(scenario: Scenario, step: Step): void {
    this.done += 1;
    this.options.progress?.({ scenario: scenario.name, step: step.name, done: this.done, total: this.total });
  }

  /** Sends one step to both sides and compares; answers its result, or undefined when it was not sent. */
  private async step(
    scenario: Scenario,
    step: Step,
    reference: SideState,
    target: SideState | undefined,
    recorded: RecordedScenario | undefined,
    record: RecordedScenario,
  ): Promise<StepResult | undefined> {
    const missing = this.missing(step);
    if (missing !== undefined) {
      this.skip(scenario, step, missing, record);
      return undefined;
    }
    if (step.effect === 'write' && !this.options.allowWrites) {
      this.skip(scenario, step, 'a write: sent only with --allow-writes', record);
      return undefined;
    }
    const kept = recorded?.steps[step.name];
    if (recorded && (!kept || 'skipped' in kept)) {
      this.skip(scenario, step, kept && 'skipped' in kept ? kept.skipped : 'not in the snapshots', record);
      return undefined;
    }
    let forReference: Resolved;
    let forTarget: Resolved | undefined;
    try {
      const auth = step.request.auth;
      if (typeof auth === 'object')
        for (const state of [reference, target]) {
          if (!state) continue;
          const granted = await grant(state, auth.scopes);
          if (typeof granted !== 'string')
            throw new Unsendable(`the client gets no token for ${auth.scopes.join(' ')}: ${granted.refused}`);
        }
      forReference = await this.prepared(step.request, reference);
      forTarget = target ? await this.prepared(step.request, target) : undefined;
    } catch (error) {
      if (!(error instanceof Unsendable)) throw error;
      this.skip(scenario, step, error.message, record);
      return undefined;
    }
    const before = step.effect === 'refused' ? this.reference.platform.snapshot() : undefined;
    let referenceAnswer = await reference.side.send(forReference);
    if (before) this.checkRefused(scenario, step, before, referenceAnswer);
    let targetAnswer: Answer;
    if (target && forTarget) targetAnswer = await target.side.send(forTarget);
    else if (kept && 'answer' in kept) targetAnswer = kept.answer;
    else throw new Error('a step with neither a target nor a recorded answer');
    if (step.request.sso) {
      referenceAnswer = await this.ssoClaims(referenceAnswer);
      if (target) targetAnswer = await this.ssoClaims(targetAnswer);
    }
    const values: Values = step.values;
    const { differences, extras } = compareAnswers(targetAnswer, referenceAnswer, values, step.accountRecords);
    if (step.effect === 'refused' && targetAnswer.status < 300)
      differences.unshift({
        kind: 'accepted',
        at: 'status',
        target: `${targetAnswer.status}: accepted`,
        reference: `${referenceAnswer.status}: refused before any change. ${step.check ?? 'Check what it changed on the stage.'}`,
      });
    for (const [name, binding] of Object.entries(step.bind ?? {})) {
      for (const [state, answer] of [
        [reference, referenceAnswer],
        [target, targetAnswer],
      ] as const) {
        const value = state ? bound(answer.body, binding) : undefined;
        if (state && value !== undefined) state.vars.set(name, value);
      }
    }
    const request = describeRequest(step.request);
    if (this.normaliser) {
      if (forTarget) this.normaliser.remember(secretsOf(forTarget));
      record.steps[step.name] = { request, answer: this.normaliser.answer(targetAnswer, values) };
    }
    const result: StepResult = {
      scenario: scenario.name,
      step: step.name,
      row: step.row,
      request,
      outcome: differences.length > 0 ? 'differs' : 'same',
      statuses: { target: targetAnswer.status, reference: referenceAnswer.status },
      differences,
      extras,
    };
    this.results.push(result);
    this.tick(scenario, step);
    return result;
  }

  /** A request filled in for a side, its SSO token signed. */
  private async prepared(request: StepRequest, state: SideState): Promise<Resolved> {
    const resolved = resolve(request, state);
    if (!request.sso) return resolved;
    const t = await this.ssoToken(request, state);
    if (request.sso.inQuery) return { ...resolved, query: [['t', t], ...resolved.query] };
    return {
      ...resolved,
      headers: { ...resolved.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ t }),
    };
  }

  /** A `refused` step must be refused by the reference with its state unchanged: else the scenario is wrong, not the target. */
  private checkRefused(scenario: Scenario, step: Step, before: StateDocument, answer: Answer): void {
    const after = this.reference.platform.snapshot();
    if (answer.status < 400 || JSON.stringify(after) !== JSON.stringify(before))
      throw new Error(
        `parity scenario ${scenario.name}, step "${step.name}": the reference platform did not refuse it unchanged (${answer.status}); a refused step must be`,
      );
  }
}

/** The lines of a dry run: the capture's reads, then each scenario's steps as they would be sent. */
/** What a run has of what scenarios and steps may need: a test account, the SSO service, the shop and its marketplace. */
interface Given {
  readonly account: boolean;
  readonly sso: boolean;
  readonly shop: boolean;
}

/** Why a scenario or a step cannot run with what is `given`, if it cannot: the run skips it, saying so. */
function missingFor(needing: { readonly needs?: Scenario['needs'] }, given: Given): string | undefined {
  for (const need of needing.needs ?? []) {
    if (need === 'account' && !given.account) return 'needs a test account (--account)';
    if (need === 'sso' && !given.sso) return 'needs the SSO service (--sso)';
    if (need === 'shop' && !given.shop) return 'needs the shop (--shop and --marketplace)';
  }
  return undefined;
}

function plan(scenarios: readonly Scenario[], options: ParityOptions): string[] {
  const lines = [
    `reachable: GET {api}/, GET {auth}/${options.target?.sso === undefined ? '' : ', GET {sso}/'}${options.target?.shop === undefined ? '' : ', GET {shop}/'}`,
    'capture: GET {api}/external/api/v1/products?include_inactive=true, then per package and campaign GET {api}/external/api/v1/products/payment_periods?product_id={id}, per product GET {api}/external/api/v1/products/get_product_sharing?id={id}, GET {api}/external/api/v1/cancellation_reason?include_internal=true, GET {api}/external/api/v1/titles/ (each with a client-credentials token: POST {auth}/api/authorization/access_token)',
  ];
  const ticket = `POST {auth}${pathOf(generateTicket, 'stage')} {"accountId":"{account_id}","clientId":"{client_id}"}, exchanged: POST {auth}${pathOf(accessToken, 'stage')} {"grant_type":"ticket","ticket":"{ticket}","client_id":"{client_id}","client_secret":"${SECRET}"}`;
  if (options.account)
    lines.push(`the test account: a ticket, ${ticket}, then GET {api}${pathOf(getMeDocumented, 'stage')}`);
  // What the run would skip is not sent, so not listed: a scenario or step needing what is not given.
  const given: Given = {
    account: options.account !== undefined,
    sso: options.target?.sso !== undefined,
    shop: options.target?.shop !== undefined && options.marketplace !== undefined,
  };
  for (const scenario of scenarios) {
    const skipped = missingFor(scenario, given);
    if (skipped !== undefined) {
      lines.push(`${scenario.name}: skipped, sends nothing: ${skipped}`);
      continue;
    }
    lines.push(
      `${scenario.name}: POST {auth}${pathOf(accessToken, 'stage')} {"grant_type":"none","client_id":"{client_id}","client_secret":"${SECRET}","scope":"${scenario.scopes.join(' ')}"}`,
    );
    if (options.account && scenario.steps.some((s) => usesUser(s.request.auth)))
      lines.push(`${scenario.name}: a user token: ${ticket}`);
    for (const step of scenario.steps) {
      if (step.effect === 'write' && !options.allowWrites) continue;
      if (missingFor(step, given) !== undefined) continue;
      lines.push(`${scenario.name}: ${step.name}: ${describeRequest(step.request)}`);
      if (step.undo && options.allowWrites)
        lines.push(`${scenario.name}: (at the end) ${step.undo.name}: ${describeRequest(step.undo.request)}`);
    }
  }
  return lines;
}

/** `only` names a scenario there is not: a usage error (the command exits 2). */
export class UnknownScenarioError extends Error {
  override readonly name = 'UnknownScenarioError';
}

/** The scenarios a run takes: all, or those `only` names (an unknown name is an {@link UnknownScenarioError}). */
function scenariosOf(only: readonly string[] | undefined): readonly Scenario[] {
  if (!only) return SCENARIOS;
  if (only.length === 0)
    throw new UnknownScenarioError('--only names no scenario (a run of none would compare nothing)');
  const unknown = only.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length > 0)
    throw new UnknownScenarioError(
      `no scenario ${unknown.join(', ')} (there are: ${SCENARIOS.map((s) => s.name).join(', ')})`,
    );
  return SCENARIOS.filter((s) => only.includes(s.name));
}

/** The file of a scenario in a snapshot directory. */
function snapshotFile(dir: string, scenario: string): string {
  return join(dir, `${scenario}.json`);
}

async function readJson<T>(path: string): Promise<T> {
  const text = await readFile(path, 'utf8');
  try {
    return JSON.parse(text) as T;
  } catch {
    // Not JSON.parse's message: it quotes the text around the fault.
    throw new Error(`${path} is not JSON: ${jsonSyntaxError(text)}`);
  }
}

/**
 * Runs the parity scenarios: against `target` and a reference platform seeded from a capture of its
 * catalogue, or against the reference alone compared with `snapshots`. Rejects with
 * {@link UnreachableError} when the target cannot be reached.
 */
export async function runParity(options: ParityOptions): Promise<ParityReport> {
  const started = performance.now();
  if (options.snapshots !== undefined && options.record !== undefined)
    throw new Error('runParity: snapshots and record exclude each other (a replay sends nothing to record)');
  const scenarios = scenariosOf(options.only);
  const finish = (run: Run | undefined, target: string, planned: string[] = []): ParityReport => {
    const results = run?.results ?? [];
    const differences = results.flatMap((r) =>
      r.differences.map((d) => ({ ...d, scenario: r.scenario, step: r.step, row: r.row, request: r.request })),
    );
    return {
      target,
      results,
      differences: [
        ...differences.filter((d) => d.kind === 'accepted'),
        ...differences.filter((d) => d.kind !== 'accepted'),
      ],
      extras: results.flatMap((r) =>
        r.extras.map((e) => ({ ...e, scenario: r.scenario, step: r.step, request: r.request })),
      ),
      writes: run?.writes ?? [],
      planned,
      durationMs: performance.now() - started,
    };
  };
  if (options.dryRun)
    return finish(undefined, options.target?.api ?? `snapshots ${options.snapshots ?? ''}`, plan(scenarios, options));

  if (options.snapshots !== undefined)
    return finish(await replay(options, scenarios), `snapshots ${options.snapshots}`);
  const target = options.target;
  if (!target) throw new Error('runParity needs a target or snapshots');
  const audience = options.ssoAudience ?? DEFAULT_AUDIENCE;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Each host answers something, or the run stops naming it.
  for (const base of [target.api, target.auth, target.sso, target.shop])
    if (base !== undefined) await send(new URL(base), 'GET', { accept: 'application/json' }, undefined, timeoutMs);
  const captured = await captureCatalogue(
    { ...target, out: '' },
    { fetch: fetchNoRedirect, timeoutMs, maxRetries: 0 },
  ).catch((error: unknown) => {
    if (error instanceof APIConnectionError) throw new UnreachableError(new URL(target.api).origin, error.message);
    // Refused otherwise (a 5xx, a 413): the run cannot go on without the catalogue, and says why.
    if (error instanceof APIError && !(error instanceof AuthenticationError))
      throw new UnreachableError(
        new URL(target.api).origin,
        `its catalogue could not be read: ${error.status}${error.code ? ` ${error.code}` : ''}`,
      );
    throw error;
  });
  const catalogue = catalogueOf(captured.document);
  const http = new HttpSide({ api: target.api, auth: target.auth, sso: target.sso, shop: target.shop }, timeoutMs);
  try {
    const known = { ...target, ...(options.account ? { account: options.account } : {}), audience };
    const identity: Identity = { ...known, accountBorn: await bornOnTarget(http, known, options) };
    const platform = createPlatform({ seed: referenceDocument(catalogue, identity, options.marketplace) });
    const normaliser = options.record === undefined ? undefined : new Normaliser();
    normaliser?.remember([target.clientSecret]);
    const run = new Run(
      scenarios,
      new ReferenceSide(platform),
      http,
      identity,
      options,
      { sso: target.sso !== undefined, shop: target.shop !== undefined && options.marketplace !== undefined },
      normaliser,
    );
    for (const scenario of scenarios) await run.scenario(scenario);
    if (options.record !== undefined && normaliser)
      await writeSnapshots(options.record, run, normaliser, catalogue, {
        organisation: normaliser.id(target.organisation),
        account: options.account ? normaliser.id(options.account) : null,
        accountBorn: identity.accountBorn ?? false,
        ssoAudience: audience,
        marketplace: options.marketplace ?? null,
        sso: target.sso !== undefined,
        shop: target.shop !== undefined,
        allowWrites: options.allowWrites ?? false,
      });
    return finish(run, target.api);
  } finally {
    http.connections.close();
  }
}

/**
 * Whether the test account has a date of birth on the target, read as the user (`GET
 * /external/api/v3/me`), so that the reference's account has one too; false when there is no test
 * account or it cannot be read.
 */
async function bornOnTarget(http: HttpSide, identity: Identity, options: ParityOptions): Promise<boolean> {
  if (!identity.account) return false;
  const state: SideState = { side: http, vars: baseVars(identity, options), tokens: new Map() };
  const token = await userToken(state);
  if (token.startsWith('!')) return false;
  const me = await http.send(resolve(call(getMeDocumented), state, `Bearer ${token}`));
  return typeof at(me.body, '/item/birth_date') === 'string';
}

/** Writes a run's snapshots: `parity.json`, `catalogue.json` and a file per scenario. */
async function writeSnapshots(
  dir: string,
  run: Run,
  normaliser: Normaliser,
  catalogue: SnapshotCatalogue,
  meta: Omit<SnapshotMeta, 'package' | 'format'>,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeAtomically(join(dir, 'parity.json'), json({ package: 'subscription-platform-sdk', format: 1, ...meta }));
  await writeAtomically(join(dir, 'catalogue.json'), json(normaliser.catalogue(catalogue)));
  for (const scenario of run.recorded) await writeAtomically(snapshotFile(dir, scenario.scenario), json(scenario));
}

/** The reference platform alone, compared with a snapshot directory. */
async function replay(options: ParityOptions, scenarios: readonly Scenario[]): Promise<Run> {
  const dir = options.snapshots ?? '';
  const meta = await readJson<SnapshotMeta>(join(dir, 'parity.json'));
  if (meta.package !== 'subscription-platform-sdk' || meta.format !== 1)
    throw new Error(`${join(dir, 'parity.json')} is not a parity snapshot of this package`);
  const catalogue = await readJson<SnapshotCatalogue>(join(dir, 'catalogue.json'));
  const recorded = new Map<string, RecordedScenario>();
  for (const scenario of scenarios) {
    try {
      recorded.set(scenario.name, await readJson<RecordedScenario>(snapshotFile(dir, scenario.name)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const identity = {
    clientId: 'parity-client',
    clientSecret: `parity-${crypto.randomUUID()}-${crypto.randomUUID()}`,
    organisation: meta.organisation,
    ...(meta.account ? { account: meta.account } : {}),
    audience: meta.ssoAudience,
    accountBorn: meta.accountBorn,
  };
  const marketplace = meta.marketplace ?? undefined;
  const platform = createPlatform({ seed: referenceDocument(catalogue, identity, marketplace) });
  const run = new Run(
    scenarios,
    new ReferenceSide(platform),
    recorded,
    identity,
    { ...options, allowWrites: meta.allowWrites, ...(marketplace ? { marketplace } : {}) },
    { sso: meta.sso, shop: meta.shop && marketplace !== undefined },
    undefined,
  );
  for (const scenario of scenarios) await run.scenario(scenario);
  return run;
}
