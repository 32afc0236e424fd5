/**
 * The refusals every read of the endpoint table is put through, written once: no token, a
 * malformed one, an unknown one, a token without the endpoint's scope, an unknown parameter, a
 * repeated one, a content type that is not JSON.
 */
import { type Endpoint, getProducts } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { type Auth, type Binding, call, type Need, query, type Step, type StepRequest } from '../scenario.js';

/** Query pairs. */
type Pairs = readonly (readonly [string, string])[];

/** What {@link readRefusals} needs of an endpoint: a valid query, the parameter to repeat, a scope it does not need. */
export interface ReadRefusals {
  /** A query the endpoint takes (placeholders allowed). */
  readonly valid: Pairs;
  /** A JSON body the endpoint takes, sent with every refusal (endpoint 6, a `GET` with a body). */
  readonly json?: unknown;
  /** A parameter of `valid` to send twice; none when the endpoint takes no parameter. */
  readonly repeat?: string;
  /** A scope the endpoint does not need (its token is refused for want of the endpoint's). */
  readonly otherScope: string;
  /** The token of the requests that carry a good one. Default `server`. */
  readonly auth?: Auth;
  /** What the steps need (the test account). */
  readonly needs?: readonly Need[];
}

/** The seven refusals of a read, named after the endpoint. */
export function readRefusals(entry: Endpoint, refusals: ReadRefusals): Step[] {
  const { valid, json, repeat, otherScope, auth = 'server', needs } = refusals;
  const what = `${entry.title.toLowerCase()}`;
  const repeated = repeat === undefined ? undefined : valid.find(([name]) => name === repeat);
  const body = json === undefined ? {} : { json };
  const steps: Step[] = [
    {
      name: `${what} without a token`,
      row: ROWS.badToken,
      effect: 'read',
      request: call(entry, { ...body, query: valid, auth: 'none' }),
    },
    {
      name: `${what} with a token that is not a bearer token`,
      row: ROWS.badToken,
      effect: 'read',
      request: call(entry, { ...body, query: valid, auth: 'malformed' }),
    },
    {
      name: `${what} with a token the platform never issued`,
      row: ROWS.badToken,
      effect: 'read',
      request: call(entry, { ...body, query: valid, auth: 'unknown' }),
    },
    {
      name: `${what} with a token without its scope`,
      row: ROWS.scope,
      effect: 'read',
      request: call(entry, { ...body, query: valid, auth: { scopes: [otherScope] } }),
    },
    {
      name: `${what} with an unknown parameter`,
      row: ROWS.field,
      effect: 'read',
      request: call(entry, { ...body, query: [...valid, ['parity_unknown', '1']], auth }),
    },
    ...(repeated
      ? [
          {
            name: `${what} with ${repeat} given twice`,
            row: ROWS.query,
            effect: 'read' as const,
            request: call(entry, { ...body, query: [...valid, repeated], auth }),
          },
        ]
      : []),
    {
      name: `${what} with a content type that is not JSON`,
      row: ROWS.contentType,
      effect: 'read',
      request: call(entry, { ...body, query: valid, headers: { 'content-type': 'text/plain' }, auth }),
    },
  ];
  return needs ? steps.map((step) => ({ ...step, needs })) : steps;
}

/** What {@link writeRefusals} needs of a write: a body in a shape no platform takes for a valid write. */
export interface WriteRefusals {
  /** A body the platform refuses for its shape alone (a malformed id): every refusal below carries it. */
  readonly malformed: Readonly<Record<string, unknown>>;
  /** A scope the endpoint does not need. */
  readonly otherScope: string;
  /** What to check on the stage if it accepts one. */
  readonly check: string;
  /** The row the malformed body's refusal tests. Default: which field an error names. */
  readonly row?: string;
  /** The token of the requests that carry a good one. Default `server`. */
  readonly auth?: Auth;
  /** What the steps need (the test account). */
  readonly needs?: readonly Need[];
}

/**
 * The refusals of a write, each sent with a body that no platform can take for a valid write, so
 * that a platform that skips a check still changes nothing: no token, an unknown one, a token
 * without the scope, the malformed body itself, a body that is not JSON, another content type, an
 * unknown member, an empty body object, a query parameter.
 */
export function writeRefusals(entry: Endpoint, refusals: WriteRefusals): Step[] {
  const { malformed, otherScope, check, row = ROWS.field, auth = 'server', needs } = refusals;
  const what = entry.title.toLowerCase();
  const text = JSON.stringify(malformed);
  const refused = (name: string, tests: string, more: Omit<StepRequest, 'host' | 'method' | 'path'>): Step => ({
    name: `${what} ${name}`,
    row: tests,
    effect: 'refused',
    request: call(entry, { auth, ...more }),
    check,
    ...(needs ? { needs } : {}),
  });
  return [
    refused('without a token', ROWS.order, { json: malformed, auth: 'none' }),
    refused('with a token the platform never issued', ROWS.badToken, { json: malformed, auth: 'unknown' }),
    refused('with a token without its scope', ROWS.scope, { json: malformed, auth: { scopes: [otherScope] } }),
    refused('with a malformed member', row, { json: malformed }),
    refused('with a body that is not JSON', ROWS.json, {
      raw: { contentType: 'application/json', text: text.slice(0, -1) },
    }),
    refused('with a body of another content type', ROWS.contentType, { raw: { contentType: 'text/plain', text } }),
    refused('with an unknown member', ROWS.field, { json: { ...malformed, parity_unknown: 1 } }),
    refused('with an empty body object', ROWS.field, { json: {} }),
    refused('with a query parameter', ROWS.query, { json: malformed, query: [['parity_unknown', '1']] }),
  ];
}

/** The first step of a scenario that works on the catalogue's packages: get them, binding what it needs. */
export function packagesOnSale(row: string, bind: Readonly<Record<string, Binding>>): Step {
  return {
    name: 'get the packages on sale',
    row,
    effect: 'read',
    request: call(getProducts, { query: query({ product_type: 'packages' }) }),
    values: 'catalogue',
    bind,
  };
}
