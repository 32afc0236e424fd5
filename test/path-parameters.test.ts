/**
 * Path parameters, end to end: a `{name}` of an entry's path is filled by the SDK from the method's
 * parameter of that name (checked, encoded, and left out of the query or the body), taken by the
 * platform's router from the path and checked against the entry's schema with the rest, and listed
 * by the OpenAPI document as a path parameter. No endpoint of the spec has one yet: these test-only
 * entries, one with a query and one with a body, stand for the first that will.
 */
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import { apiRoute } from '../mock/core/route.js';
import { operationOf } from '../mock/openapi.js';
import { createPlatformWith } from '../mock/platform.js';
import { allRoutes } from '../mock/routes/index.js';
import { demoIds } from '../mock/seeds/demo.js';
import type { Endpoint } from '../src/endpoints.js';
import { RequestValidationError } from '../src/index.js';
import { parseOptions } from '../src/options.js';
import { Pipeline } from '../src/pipeline.js';
import { IdResponse, id } from '../src/schemas/common.js';
import { UpdateUserProductRequest } from '../src/schemas/user-products.js';
import { fillPath } from '../src/url.js';

// Under /test: a real endpoint of the table may take the spec-like path one day (the route list
// would then serve it first).
const NOTES = '/test/accounts/{account_id}/notes';
const SCOPE = '/test/notes/r';
const anna = demoIds.accounts.anna;

/** `GET`: the account in the path, a filter in the query. */
const listNotes = {
  documented: 'test',
  title: 'List notes (test)',
  sdk: 'notes.list',
  method: 'GET',
  host: 'api',
  path: NOTES,
  scopes: [SCOPE],
  identity: false,
  bearer: true,
  query: z.strictObject({ account_id: id, kind: z.enum(['call', 'mail']).optional() }),
  body: undefined,
  response: z.object({ account_id: z.string(), kind: z.string().nullable() }),
  status: 200,
} as const satisfies Endpoint;

/** `POST`: the account in the path, the note in the body. */
const addNote = {
  ...listNotes,
  title: 'Add note (test)',
  sdk: 'notes.add',
  method: 'POST',
  query: undefined,
  body: z.strictObject({ account_id: id, text: z.string().min(1) }),
  response: z.object({ account_id: z.string(), text: z.string() }),
  status: 201,
} as const satisfies Endpoint;

/** `GET /test/accounts/{account_id}`: a pattern beside a path without parameters under the same prefix. */
const getAccount = {
  ...listNotes,
  title: 'Get account (test)',
  sdk: 'notes.account',
  path: '/test/accounts/{account_id}',
  query: z.strictObject({ account_id: id }),
  response: z.object({ account_id: z.string() }),
} as const satisfies Endpoint;

/** `GET /test/accounts/recent`: the literal sibling `{account_id}` would match. */
const recentAccounts = {
  ...listNotes,
  title: 'Recent accounts (test)',
  sdk: 'notes.recent',
  path: '/test/accounts/recent',
  query: z.strictObject({}),
  response: z.object({ recent: z.boolean() }),
} as const satisfies Endpoint;

const platform = createPlatformWith([
  ...allRoutes,
  apiRoute(listNotes, ({ input }) => ({ body: { account_id: input.account_id, kind: input.kind ?? null } })),
  apiRoute(addNote, ({ input }) => ({ body: input })),
  apiRoute(getAccount, ({ input }) => ({ body: { account_id: input.account_id } })),
  apiRoute(recentAccounts, () => ({ body: { recent: true } })),
]);
const API = 'https://api.platform.test';
const token = () => platform.mintToken({ scopes: [SCOPE] }).access_token;

/** Plain fetch against the platform in process: status and JSON body. */
async function call(
  path: string,
  init: RequestInit = {},
  bearer = token(),
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers = { authorization: `Bearer ${bearer}`, ...(init.body ? { 'content-type': 'application/json' } : {}) };
  const answer = await platform.handle(new Request(`${API}${path}`, { ...init, headers }));
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

describe('the platform takes a path parameter from the path and checks it with the entry\u2019s schema', () => {
  test('GET with the id in the path and a filter in the query: both reach the handler', async () => {
    const answer = await call(`/test/accounts/${anna}/notes?kind=call`);
    expect(answer).toEqual({ status: 200, body: { account_id: anna, kind: 'call' } });
  });

  test('a trailing slash finds the same route, as it does for a path without parameters', async () => {
    const answer = await call(`/test/accounts/${anna}/notes/?kind=call`);
    expect(answer).toEqual({ status: 200, body: { account_id: anna, kind: 'call' } });
  });

  test('a path without parameters comes before a pattern it matches, with a trailing slash or without', async () => {
    for (const path of ['/test/accounts/recent', '/test/accounts/recent/'])
      expect(await call(path)).toEqual({ status: 200, body: { recent: true } });
    expect(await call(`/test/accounts/${anna}/`)).toEqual({ status: 200, body: { account_id: anna } });
  });

  test('an empty segment is no value: 404, the route is not taken, nothing changes', async () => {
    const bearer = token();
    const before = platform.snapshot();
    const answer = await call('/test/accounts//notes', {}, bearer);
    expect(platform.snapshot()).toEqual(before);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'not_found' });
  });

  test('POST with the id in the path and the note in the body', async () => {
    const answer = await call(`/test/accounts/${anna}/notes`, {
      method: 'POST',
      body: JSON.stringify({ text: 'called about the invoice' }),
    });
    expect(answer).toEqual({ status: 201, body: { account_id: anna, text: 'called about the invoice' } });
  });

  test('an id of the wrong shape in the path: 400 invalid_parameter naming account_id, nothing changes', async () => {
    const bearer = token();
    const before = platform.snapshot();
    const answer = await call('/test/accounts/not-an-id/notes', {}, bearer);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_parameter', field: 'account_id' });
    expect(answer.body.message).toContain('24 hexadecimal characters');
    expect(platform.snapshot()).toEqual(before);
  });

  test.each([
    ['in the query', `/test/accounts/${anna}/notes?account_id=${anna}`, {}],
    [
      'in the body',
      `/test/accounts/${anna}/notes`,
      { method: 'POST', body: JSON.stringify({ account_id: anna, text: 'x' }) },
    ],
  ])('the path parameter given %s too: 400 unknown_parameter naming it, nothing changes', async (_, path, init) => {
    const bearer = token();
    const before = platform.snapshot();
    const answer = await call(path, init, bearer);
    expect(platform.snapshot()).toEqual(before);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'unknown_parameter', field: 'account_id' });
  });

  test.each([
    ['as written', '/test/accounts/{account_id}/notes'],
    ['escaped', '/test/accounts/%7Baccount_id%7D/notes'],
  ])(
    'the template\u2019s own {account_id}, %s, is no value: 404, the route is not taken, nothing changes',
    async (_, path) => {
      const bearer = token();
      const before = platform.snapshot();
      const answer = await call(`${path}?account_id=${anna}`, {}, bearer);
      expect(platform.snapshot()).toEqual(before);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'not_found' });
    },
  );
});

describe('the SDK fills the path from the method\u2019s parameters', () => {
  const sent: string[] = [];
  const pipeline = new Pipeline(
    parseOptions({
      environment: 'stage',
      hosts: { api: API, auth: 'https://auth.platform.test' },
      auth: { accessToken: () => token() },
      maxRetries: 0,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        sent.push(
          `${request.method} ${new URL(request.url).pathname}${new URL(request.url).search} ${request.body ? await request.clone().text() : ''}`.trim(),
        );
        return platform.handle(request);
      },
    }),
  );

  test('GET: the id in the path, encoded, and not in the query', async () => {
    sent.length = 0;
    const data = await pipeline.request(listNotes, { account_id: anna, kind: 'mail' });
    expect(data).toEqual({ account_id: anna, kind: 'mail' });
    expect(sent).toEqual([`GET /test/accounts/${anna}/notes?kind=mail`]);
  });

  test('POST: the id in the path and not in the body', async () => {
    sent.length = 0;
    const data = await pipeline.request(addNote, { account_id: anna, text: 'hello' });
    expect(data).toEqual({ account_id: anna, text: 'hello' });
    expect(sent).toEqual([`POST /test/accounts/${anna}/notes {"text":"hello"}`]);
  });

  test('a value is one encoded segment: a slash, a space or a ? cannot climb out of it', () => {
    expect(fillPath('/a/{x}/b/{y}', { x: '../c d?e', y: 7, z: 'kept' })).toEqual({
      path: '/a/..%2Fc%20d%3Fe/b/7',
      rest: { z: 'kept' },
    });
    expect(fillPath('/no/template', { x: 1 })).toEqual({ path: '/no/template', rest: { x: 1 } });
  });

  test.each([
    ['absent', {}],
    ['empty', { x: '' }],
    ['.', { x: '.' }],
    ['..', { x: '..' }],
  ])(
    'a path member %s (a schema that allowed it) is refused, naming it: never /undefined/, never a step up the path',
    (_, input) => {
      expect(() => fillPath('/a/{x}/b', input)).toThrow(expect.objectContaining({ field: 'x' }));
    },
  );

  test('a missing path parameter is refused before anything is sent, naming it', async () => {
    sent.length = 0;
    // @ts-expect-error account_id is required
    const error = await pipeline.request(listNotes, { kind: 'call' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('account_id');
    expect(sent).toEqual([]);
  });
});

describe('the OpenAPI document lists a path parameter in: path, with its member\u2019s schema', () => {
  test('PUT whose body is a named schema: the path member keeps its rule, and the named schema does not join the components unused', () => {
    // A named body (one `src/schemas` exports) whose account_id travels in the path.
    const updateUnder = {
      ...listNotes,
      title: 'Update user-product under its account (test)',
      sdk: 'notes.update',
      method: 'PUT',
      path: '/test/accounts/{account_id}/userproduct',
      query: undefined,
      body: UpdateUserProductRequest,
      response: IdResponse,
    } as const satisfies Endpoint;
    const { operation, schemas } = operationOf(updateUnder, 'notes', updateUnder.path);
    const parameters = operation.parameters as { name: string; in: string; schema: object }[];
    expect(parameters.map((p) => [p.name, p.in])).toEqual([['account_id', 'path']]);
    expect(parameters[0]?.schema).toMatchObject({ type: 'string', maxLength: 24, pattern: '^[a-fA-F\\d]{24}$' });
    expect(Object.keys(schemas)).not.toContain('UpdateUserProductRequest');
  });

  test('GET: account_id in the path, required, the id rule; the query keeps only kind', () => {
    const { operation } = operationOf(listNotes, 'notes');
    const parameters = operation.parameters as { name: string; in: string; required: boolean; schema: object }[];
    expect(parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['account_id', 'path', true],
      ['kind', 'query', false],
    ]);
    expect(parameters[0]?.schema).toMatchObject({ type: 'string', maxLength: 24, pattern: '^[a-fA-F\\d]{24}$' });
  });

  test('POST: account_id in the path and not in the body\u2019s schema', () => {
    const { operation } = operationOf(addNote, 'notes');
    expect((operation.parameters as { name: string; in: string }[]).map((p) => [p.name, p.in])).toEqual([
      ['account_id', 'path'],
    ]);
    const body = (
      operation.requestBody as { content: Record<string, { schema: { properties: object; required: string[] } }> }
    ).content['application/json']?.schema;
    expect(Object.keys(body?.properties ?? {})).toEqual(['text']);
    expect(body?.required).toEqual(['text']);
  });
});
