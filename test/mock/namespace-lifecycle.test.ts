/**
 * The life of a shared server's namespace: made only once a request to it is accepted, and only by
 * a request that may open it (a refusal, a page of another site, or a request without the admin
 * token a server has leaves no namespace and no state file behind, so none can take every slot), listed and
 * dropped through the root's admin API (`GET /__admin/namespaces`, `DELETE /__admin/namespaces/{name}`,
 * behind the admin guard), idle from the end of its last request and never dropped with one in
 * flight, and a dropped namespace's writer stopped before its file can serve a new namespace of
 * the same name. Idleness runs on a clock the test moves (`now`, or fake `Date` and `setInterval`);
 * requests are held in flight by an explicit gate, never by the machine's speed.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { HttpError } from '../../mock/core/errors.js';
import type { PlatformOptions } from '../../mock/core/options.js';
import { route } from '../../mock/core/route.js';
import { createPlatform, type Platform, type StateDocument } from '../../mock/index.js';
import { Namespaces, sweepIntervalMs } from '../../mock/node/namespaces.js';
import { type RunningServer, startServer } from '../../mock/node/server.js';
import { nodeFileSystem, STATE_WRITE_DELAY_MS, StateWriter } from '../../mock/node/state-file.js';
import { createPlatformWith } from '../../mock/platform.js';
import { allRoutes } from '../../mock/routes/index.js';
import { demoCredentials } from '../../mock/seeds/demo.js';
import { ErrorBody } from '../../src/schemas/common.js';
import { paths } from '../paths.js';
import { until } from '../until.js';

function freshDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'platform-namespaces-'));
}

function readState(path: string): StateDocument {
  return JSON.parse(readFileSync(path, 'utf8')) as StateDocument;
}

/** The namespaces' state files in a directory. */
function namespaceFiles(directory: string): string[] {
  return readdirSync(directory).filter((f) => f.includes('.ns-'));
}

/** The name the held write gives the first organisation. */
const HELD_WRITE = 'Written while held in flight';
/** The name the refused-after-a-change route gives it. */
const REFUSED_CHANGE = 'Changed, then refused';

/**
 * A platform with two routes of its own beside the platform's (each namespace gets them too):
 * `POST /test/held-write` waits at a gate the test opens, then renames the first organisation;
 * `POST /test/refused-after-a-change` renames it, then answers `409`.
 */
function gatedPlatform(options: PlatformOptions = {}) {
  let entered = () => {};
  let release = () => {};
  const isEntered = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const routes = [
    ...allRoutes,
    route({ method: 'POST', path: '/test/held-write', kind: 'auth' }, async ({ state }) => {
      entered();
      await released;
      state.document.organisations[0]!.name = HELD_WRITE;
      return { body: { written: true } };
    }),
    route({ method: 'POST', path: '/test/refused-after-a-change', kind: 'auth' }, ({ state }) => {
      state.document.organisations[0]!.name = REFUSED_CHANGE;
      throw new HttpError(409, 'invalid_state', 'Refused after a change');
    }),
  ];
  return { platform: createPlatformWith(routes, options), entered: isEntered, release: () => release() };
}

/** Expects the common error body with this status, code and field, and no CORS header on an admin answer. */
async function expectError(response: Response, status: number, code: string, field = 'unspecified_field') {
  const body = ErrorBody.parse(await response.json());
  expect({ status: response.status, code: body.code, field: body.field }).toEqual({ status, code, field });
  expect(body.api_correlation_id).toBe(response.headers.get('x-correlation-id'));
}

/** The namespaces a server lists (`GET /__admin/namespaces`). */
interface Listed {
  name: string;
  last_used_at: string;
  in_flight: number;
  records: number;
}

async function listed(server: RunningServer, headers: Record<string, string> = {}): Promise<Listed[]> {
  const answer = await fetch(`${server.url}/__admin/namespaces`, { headers });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { items: Listed[] }).items;
}

function post(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers });
}

function drop(server: RunningServer, name: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/__admin/namespaces/${name}`, { method: 'DELETE', headers });
}

/** The name of the first organisation in a namespace, read through its admin API. */
async function firstOrganisation(server: RunningServer, name: string): Promise<string> {
  const document = (await fetch(`${server.url}/_ns/${name}/__admin/state`).then((r) => r.json())) as StateDocument;
  return document.organisations[0]!.name;
}

const REFUSALS: readonly [string, (name: string) => [string, RequestInit, number]][] = [
  ['an unknown path', (name) => [`/_ns/${name}/no/such/path`, {}, 404]],
  [
    'a cross-site admin call',
    (name) => [`/_ns/${name}/__admin/reset`, { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } }, 403],
  ],
  ['Origin: null', (name) => [`/_ns/${name}/__admin/reset`, { method: 'POST', headers: { origin: 'null' } }, 403]],
];

describe('a namespace is made only once a request to it is accepted', () => {
  test("40 refused requests (an unknown path, a cross-site admin call, Origin: null) to 40 new namespaces leave none and no state file; a worker's first request is then served", async () => {
    const directory = freshDirectory();
    const server = await startServer({ port: 0, maxNamespaces: 32, stateFile: join(directory, 'state.json') });
    try {
      const before = server.platform.snapshot();
      for (let i = 0; i < 40; i++) {
        const [, refusal] = REFUSALS[i % REFUSALS.length]!;
        const [path, init, status] = refusal(`attacker-${i}`);
        expect((await fetch(`${server.url}${path}`, init)).status, path).toBe(status);
      }
      expect(await listed(server)).toEqual([]);
      expect(server.namespace('attacker-0')).toBeUndefined();
      expect(server.platform.snapshot()).toEqual(before);
      // The team's next worker is served, not 503 namespace_limit_reached.
      expect((await post(server, '/_ns/worker-1/__admin/reset')).status).toBe(204);
      expect((await listed(server)).map((n) => n.name)).toEqual(['worker-1']);
    } finally {
      await server.close();
    }
    // The stop writes every namespace held: only the worker's file is there.
    expect(namespaceFiles(directory)).toEqual(['state.json.ns-worker-1.json']);
  });

  test('under --admin-token, admin calls without the token (401) make no namespace; the list needs the token too', async () => {
    const directory = freshDirectory();
    const token = 'team-admin-token';
    const authorization = { authorization: `Bearer ${token}` };
    const server = await startServer({
      port: 0,
      platform: createPlatform({ adminToken: token }),
      stateFile: join(directory, 'state.json'),
    });
    try {
      for (let i = 0; i < 40; i++) {
        const answer = await post(server, `/_ns/guess-${i}/__admin/reset`);
        await expectError(answer, 401, 'invalid_token', 'authorization');
      }
      await expectError(await fetch(`${server.url}/__admin/namespaces`), 401, 'invalid_token', 'authorization');
      expect(await listed(server, authorization)).toEqual([]);
      expect((await post(server, '/_ns/worker-1/__admin/reset', authorization)).status).toBe(204);
      expect((await listed(server, authorization)).map((n) => n.name)).toEqual(['worker-1']);
      // A drop without the token is refused and drops nothing.
      await expectError(await drop(server, 'worker-1'), 401, 'invalid_token', 'authorization');
      expect((await listed(server, authorization)).map((n) => n.name)).toEqual(['worker-1']);
    } finally {
      await server.close();
    }
    expect(namespaceFiles(directory)).toEqual(['state.json.ns-worker-1.json']);
  });

  test('requests a page of another site sends (a navigation or no-cors GET: Sec-Fetch-Site cross-site; an Origin that is null or not answered) are answered, but open no namespace: 60 of them leave none and no state file; a namespace held answers them as before', async () => {
    const directory = freshDirectory();
    const server = await startServer({
      port: 0,
      seed: 'demo',
      maxNamespaces: 32,
      stateFile: join(directory, 'state.json'),
    });
    const grant = JSON.stringify({
      grant_type: 'none',
      client_id: demoCredentials.clientId,
      client_secret: demoCredentials.clientSecret,
      scope: '/external/product/r',
    });
    // Each accepted, had it come from the team: a read, and the grant with the public demo secret (a change).
    const pageRequests: readonly [string, (name: string) => [string, RequestInit]][] = [
      ['a no-cors GET', (name) => [`/_ns/${name}/openapi.json`, { headers: { 'sec-fetch-site': 'cross-site' } }]],
      [
        'a GET with a foreign Origin',
        (name) => [`/_ns/${name}/openapi.json`, { headers: { origin: 'http://evil.test' } }],
      ],
      [
        'a grant with Origin: null',
        (name) => [
          `/_ns/${name}${paths.accessToken}`,
          { method: 'POST', headers: { origin: 'null', 'content-type': 'application/json' }, body: grant },
        ],
      ],
    ];
    try {
      const before = server.platform.snapshot();
      for (let i = 0; i < 60; i++) {
        const [kind, request] = pageRequests[i % pageRequests.length]!;
        const [path, init] = request(`page-${i}`);
        expect((await fetch(`${server.url}${path}`, init)).status, kind).toBe(200);
      }
      expect(await listed(server)).toEqual([]);
      expect(server.namespace('page-0')).toBeUndefined();
      expect(server.platform.snapshot()).toEqual(before);
      // The team's worker opens its namespace; the same requests into it are answered, and it stays.
      expect((await post(server, '/_ns/worker-1/__admin/reset')).status).toBe(204);
      for (const [kind, request] of pageRequests) {
        const [path, init] = request('worker-1');
        expect((await fetch(`${server.url}${path}`, init)).status, kind).toBe(200);
      }
      expect((await listed(server)).map((n) => n.name)).toEqual(['worker-1']);
    } finally {
      await server.close();
    }
    expect(namespaceFiles(directory)).toEqual(['state.json.ns-worker-1.json']);
  });

  test('under --admin-token, a request that would open a namespace without the token is 403 namespace_not_open (a read, the grant with the demo secret) and leaves none; with the token it opens, then answers without it; one back from its state file needs no token', async () => {
    const directory = freshDirectory();
    const token = 'team-admin-token';
    const authorization = { authorization: `Bearer ${token}` };
    const stateFile = join(directory, 'state.json');
    const grant = () =>
      JSON.stringify({
        grant_type: 'none',
        client_id: demoCredentials.clientId,
        client_secret: demoCredentials.clientSecret,
        scope: '/external/product/r',
      });
    const grantIn = (server: RunningServer, name: string) =>
      fetch(`${server.url}/_ns/${name}${paths.accessToken}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: grant(),
      });
    const first = await startServer({
      port: 0,
      platform: createPlatform({ seed: 'demo', adminToken: token }),
      stateFile,
    });
    try {
      const before = first.platform.snapshot();
      for (let i = 0; i < 40; i++) {
        const answer =
          i % 2 === 0
            ? await fetch(`${first.url}/_ns/neighbour-${i}/openapi.json`)
            : await grantIn(first, `neighbour-${i}`);
        await expectError(answer, 403, 'namespace_not_open', 'namespace');
      }
      expect(await listed(first, authorization)).toEqual([]);
      expect(first.platform.snapshot()).toEqual(before);
      // A worker opens its namespace with the token; then it answers the grant and reads without it.
      expect((await post(first, '/_ns/worker-1/__admin/reset', authorization)).status).toBe(204);
      expect((await grantIn(first, 'worker-1')).status).toBe(200);
      expect((await fetch(`${first.url}/_ns/worker-1/openapi.json`)).status).toBe(200);
      expect((await listed(first, authorization)).map((n) => n.name)).toEqual(['worker-1']);
    } finally {
      await first.close();
    }
    expect(namespaceFiles(directory)).toEqual(['state.json.ns-worker-1.json']);
    // After a restart, the namespace comes back from its file on a request without the token.
    const second = await startServer({
      port: 0,
      platform: createPlatform({ seed: 'demo', adminToken: token }),
      stateFile,
    });
    try {
      expect((await grantIn(second, 'worker-1')).status).toBe(200);
      expect((await listed(second, authorization)).map((n) => n.name)).toEqual(['worker-1']);
      await expectError(await grantIn(second, 'worker-2'), 403, 'namespace_not_open', 'namespace');
    } finally {
      await second.close();
    }
  });

  test('a first request refused after it changed the state keeps its namespace, and the change', async () => {
    const gated = gatedPlatform();
    const server = await startServer({ port: 0, platform: gated.platform });
    try {
      await expectError(await post(server, '/_ns/a/test/refused-after-a-change'), 409, 'invalid_state');
      expect((await listed(server)).map((n) => n.name)).toEqual(['a']);
      expect(await firstOrganisation(server, 'a')).toBe(REFUSED_CHANGE);
    } finally {
      await server.close();
    }
  });

  test('a refused first request answers as before: from a fresh namespace, whose journal then goes with it', async () => {
    const server = await startServer({ port: 0 });
    try {
      const refused = await fetch(`${server.url}/_ns/a/no/such/path`);
      await expectError(refused, 404, 'not_found');
      expect(server.namespace('a')).toBeUndefined();
      // An accepted request makes it, from the seed, with an empty journal.
      const journal = await fetch(`${server.url}/_ns/a/__admin/requests`).then((r) => r.json());
      expect(journal).toEqual({ items: [] });
    } finally {
      await server.close();
    }
  });
});

describe("the namespaces' admin routes on the server's root", () => {
  test('GET /__admin/namespaces lists each namespace once a request to it is accepted: its name, last use, requests in flight and records', async () => {
    const server = await startServer({ port: 0 });
    try {
      expect(await listed(server)).toEqual([]);
      const started = Date.now();
      expect((await post(server, '/_ns/b/__admin/reset')).status).toBe(204);
      expect((await fetch(`${server.url}/_ns/a/openapi.json`)).status).toBe(200);
      const items = await listed(server);
      expect(items.map((n) => n.name)).toEqual(['a', 'b']);
      const document = (await fetch(`${server.url}/_ns/a/__admin/state`).then((r) => r.json())) as Record<
        string,
        unknown
      >;
      const records = Object.values(document).reduce<number>((n, v) => n + (Array.isArray(v) ? v.length : 0), 0);
      expect(records).toBeGreaterThan(0);
      for (const item of items) {
        expect(item).toEqual({ name: item.name, last_used_at: item.last_used_at, in_flight: 0, records });
        expect(new Date(item.last_used_at).toISOString()).toBe(item.last_used_at);
        expect(Date.parse(item.last_used_at)).toBeGreaterThanOrEqual(started - 1000);
      }
      // The root platform is no namespace, and its own /__admin is as before.
      expect((await fetch(`${server.url}/__admin/clock`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  test('DELETE /__admin/namespaces/{name} drops it now and removes its state file; its next request starts from the seed', async () => {
    const directory = freshDirectory();
    const path = join(directory, 'state.json');
    const gated = gatedPlatform();
    const server = await startServer({ port: 0, platform: gated.platform, stateFile: path });
    const seedName = gated.platform.snapshot().organisations[0]!.name;
    try {
      await expectError(await post(server, '/_ns/a/test/refused-after-a-change'), 409, 'invalid_state');
      expect((await post(server, '/_ns/b/__admin/reset')).status).toBe(204);
      await until(() => expect(readState(`${path}.ns-a.json`).organisations[0]!.name).toBe(REFUSED_CHANGE));
      const dropped = await drop(server, 'a');
      expect(dropped.status).toBe(204);
      expect(await dropped.text()).toBe('');
      expect(existsSync(`${path}.ns-a.json`)).toBe(false);
      expect((await listed(server)).map((n) => n.name)).toEqual(['b']);
      expect(server.namespace('a')).toBeUndefined();
      expect(await firstOrganisation(server, 'a')).toBe(seedName);
    } finally {
      await server.close();
    }
  });

  test('DELETE also removes the state file a namespace dropped as idle left; a name with neither is 404, a bad name 400, another method 405', async () => {
    const directory = freshDirectory();
    const path = join(directory, 'state.json');
    const server = await startServer({ port: 0, stateFile: path });
    try {
      writeFileSync(`${path}.ns-left.json`, '{}');
      expect((await drop(server, 'left')).status).toBe(204);
      expect(existsSync(`${path}.ns-left.json`)).toBe(false);
      await expectError(await drop(server, 'left'), 404, 'not_found', 'namespace');
      await expectError(await drop(server, 'Bad_Name'), 400, 'invalid_parameter', 'namespace');
      await expectError(await drop(server, '-a'), 400, 'invalid_parameter', 'namespace');
      const listPost = await post(server, '/__admin/namespaces');
      expect(listPost.headers.get('allow')).toBe('GET');
      await expectError(listPost, 405, 'method_not_allowed');
      const nameGet = await fetch(`${server.url}/__admin/namespaces/left`);
      expect(nameGet.headers.get('allow')).toBe('DELETE');
      await expectError(nameGet, 405, 'method_not_allowed');
      expect(await listed(server)).toEqual([]);
      expect(namespaceFiles(directory)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  test("the server's own refusals of a namespace's /__admin (a bad name, the cap, preflights too) carry no CORS headers, as every admin answer; the API's keep them", async () => {
    const server = await startServer({ port: 0, maxNamespaces: 1 });
    const page = { origin: 'http://localhost:3000' };
    const cors = (answer: Response) => [...answer.headers.keys()].filter((h) => h.startsWith('access-control-'));
    try {
      expect((await post(server, '/_ns/a/__admin/reset')).status).toBe(204);
      const full = await post(server, '/_ns/b/__admin/state', page);
      expect(cors(full)).toEqual([]);
      await expectError(full, 503, 'namespace_limit_reached', 'namespace');
      const badName = await fetch(`${server.url}/_ns/BAD/__admin/clock`, { headers: page });
      expect(cors(badName)).toEqual([]);
      await expectError(badName, 400, 'invalid_parameter', 'namespace');
      const preflight = await fetch(`${server.url}/_ns/b/__admin/state`, {
        method: 'OPTIONS',
        headers: { ...page, 'access-control-request-method': 'POST' },
      });
      expect(cors(preflight)).toEqual([]);
      // The same refusal of an API path keeps its CORS headers: a page of this machine reads it.
      const api = await fetch(`${server.url}/_ns/b/openapi.json`, { headers: page });
      expect(api.status).toBe(503);
      expect(api.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await server.close();
    }
  });

  test('the routes go through the admin guard: a cross-site call or Origin: null is 403 and drops nothing; no CORS headers; admin: false is 404', async () => {
    const server = await startServer({ port: 0 });
    try {
      expect((await post(server, '/_ns/a/__admin/reset')).status).toBe(204);
      const crossSite = await fetch(`${server.url}/__admin/namespaces`, {
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect([...crossSite.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
      await expectError(crossSite, 403, 'cross_site_request', 'sec-fetch-site');
      await expectError(await drop(server, 'a', { origin: 'null' }), 403, 'cross_site_request', 'origin');
      await expectError(
        await drop(server, 'a', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
        403,
        'cross_site_request',
        'sec-fetch-site',
      );
      const list = await fetch(`${server.url}/__admin/namespaces`);
      expect([...list.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(list.headers.get('x-correlation-id')).toBeTruthy();
      expect(((await list.json()) as { items: Listed[] }).items.map((n) => n.name)).toEqual(['a']);
    } finally {
      await server.close();
    }
    const closed = await startServer({ port: 0, platform: createPlatform({ admin: false }) });
    try {
      await expectError(await fetch(`${closed.url}/__admin/namespaces`), 404, 'not_found');
      await expectError(await drop(closed, 'a'), 404, 'not_found');
    } finally {
      await closed.close();
    }
  });

  test("/_ns/{name}/__admin/namespaces is that namespace's own admin API (no such route: 404), not the server's list", async () => {
    const server = await startServer({ port: 0 });
    try {
      await expectError(await fetch(`${server.url}/_ns/a/__admin/namespaces`), 404, 'not_found');
      expect(await listed(server)).toEqual([]);
      expect((await post(server, '/_ns/a/__admin/reset')).status).toBe(204);
      const inA = await fetch(`${server.url}/_ns/a/__admin/namespaces/a`, { method: 'DELETE' });
      await expectError(inA, 404, 'not_found');
      expect((await listed(server)).map((n) => n.name)).toEqual(['a']);
    } finally {
      await server.close();
    }
  });

  test('a namespace dropped while a request to it is in flight: the request ends there and writes nothing; the file stays removed and the name starts afresh', async () => {
    const directory = freshDirectory();
    const path = join(directory, 'state.json');
    const gated = gatedPlatform();
    const seedName = gated.platform.snapshot().organisations[0]!.name;
    const server = await startServer({ port: 0, platform: gated.platform, stateFile: path });
    try {
      expect((await post(server, '/_ns/a/__admin/reset')).status).toBe(204);
      await until(() => expect(existsSync(`${path}.ns-a.json`)).toBe(true));
      const held = post(server, '/_ns/a/test/held-write');
      await gated.entered;
      expect(await listed(server)).toMatchObject([{ name: 'a', in_flight: 1 }]);
      expect((await drop(server, 'a')).status).toBe(204);
      expect(existsSync(`${path}.ns-a.json`)).toBe(false);
      expect(await listed(server)).toEqual([]);
      // The name makes a new namespace from the seed; the old one still answers its request.
      expect(await firstOrganisation(server, 'a')).toBe(seedName);
      gated.release();
      expect((await held).status).toBe(200);
      expect(await firstOrganisation(server, 'a')).toBe(seedName);
    } finally {
      await server.close();
    }
    expect(readState(`${path}.ns-a.json`).organisations[0]!.name).toBe(seedName);
  });
});

describe("idleness is counted from a request's end; a namespace with one in flight is never dropped", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a namespace whose request outlasts the idle time stays, and is dropped an idle time after that request ends', async () => {
    let now = 0;
    const idleMs = 1_000;
    const namespaces = new Namespaces({ max: 4, idleMs, create: (name) => ({ name }), now: () => now });
    try {
      namespaces.enter('a');
      const request = namespaces.begin('a');
      now = 10 * idleMs;
      await namespaces.sweep();
      expect(namespaces.list()).toMatchObject([{ name: 'a', inFlight: 1 }]);
      request.end(true);
      await namespaces.sweep();
      expect(namespaces.names()).toEqual(['a']);
      now += idleMs - 1;
      await namespaces.sweep();
      expect(namespaces.names()).toEqual(['a']);
      now += 1;
      await namespaces.sweep();
      expect(namespaces.names()).toEqual([]);
    } finally {
      namespaces.close();
    }
  });

  test('a namespace made for a refused request is gone (and closed) once it is answered: refusals never take the slot of the cap', async () => {
    const closed: string[] = [];
    const namespaces = new Namespaces({
      max: 1,
      idleMs: 1_000,
      create: (name) => ({ name }),
      closed: (name) => closed.push(name),
      now: () => 0,
    });
    try {
      const refused = namespaces.begin('x');
      expect(refused.pending).toBe(true);
      // Not a namespace of the server yet: not listed, not answered by get.
      expect(namespaces.names()).toEqual([]);
      expect(namespaces.get('x')).toBeUndefined();
      refused.end(false);
      expect(namespaces.has('x')).toBe(false);
      expect(closed).toEqual(['x']);
      for (let i = 0; i < 40; i++) namespaces.begin(`r-${i}`).end(false);
      const accepted = namespaces.begin('y');
      accepted.end(true);
      expect(accepted.pending).toBe(false);
      expect(namespaces.names()).toEqual(['y']);
    } finally {
      namespaces.close();
    }
  });

  test('two first requests at once share the new namespace: kept when either is accepted, whichever ends first; gone when neither is', async () => {
    const namespaces = new Namespaces({ max: 4, idleMs: 1_000, create: (name) => ({ name }), now: () => 0 });
    try {
      const first = namespaces.begin('a');
      const second = namespaces.begin('a');
      expect(second.namespace).toBe(first.namespace);
      first.end(false);
      expect(namespaces.has('a')).toBe(true);
      second.end(true);
      expect(namespaces.get('a')).toBe(first.namespace);
      // Ending twice changes nothing.
      second.end(false);
      expect(namespaces.names()).toEqual(['a']);
      const third = namespaces.begin('b');
      const fourth = namespaces.begin('b');
      fourth.end(false);
      third.end(false);
      expect(namespaces.has('b')).toBe(false);
    } finally {
      namespaces.close();
    }
  });

  test('a namespace dropped as idle is retired, then closed, before its name can make a new one', async () => {
    let now = 0;
    const idleMs = 1_000;
    const events: string[] = [];
    let finish = () => {};
    const namespaces = new Namespaces({
      max: 4,
      idleMs,
      now: () => now,
      create: (name) => {
        events.push(`create ${name}`);
        return { name };
      },
      retire: (name) =>
        new Promise<void>((resolve) => {
          events.push(`retire ${name}`);
          finish = resolve;
        }),
      closed: (name) => events.push(`closed ${name}`),
    });
    try {
      const first = namespaces.enter('a');
      now = idleMs;
      const sweeping = namespaces.sweep();
      // While it is retired, a request still gets it (and would keep it).
      expect(namespaces.has('a')).toBe(true);
      finish();
      await sweeping;
      expect(events).toEqual(['create a', 'retire a', 'closed a']);
      expect(namespaces.enter('a')).not.toBe(first);
      expect(events.at(-1)).toBe('create a');
    } finally {
      namespaces.close();
    }
  });

  test('a drop on request: discard runs while it is held, a request meanwhile is served by it, the name is free once done', async () => {
    let finish = () => {};
    const discarded: string[] = [];
    const namespaces = new Namespaces({
      max: 4,
      idleMs: 1_000,
      now: () => 0,
      create: (name) => ({ name }),
      discard: (name) =>
        new Promise<void>((resolve) => {
          discarded.push(name);
          finish = resolve;
        }),
    });
    try {
      const first = namespaces.enter('a');
      const inFlight = namespaces.begin('a');
      const dropping = namespaces.drop('a');
      expect(discarded).toEqual(['a']);
      expect(namespaces.names()).toEqual([]);
      const meanwhile = namespaces.begin('a');
      expect(meanwhile.namespace).toBe(first);
      meanwhile.end(true);
      finish();
      expect(await dropping).toBe(true);
      expect(namespaces.has('a')).toBe(false);
      // Its request ends after the drop: it keeps nothing.
      inFlight.end(true);
      expect(namespaces.has('a')).toBe(false);
      expect(namespaces.enter('a')).not.toBe(first);
      expect(await namespaces.drop('none')).toBe(false);
    } finally {
      namespaces.close();
    }
  });

  test('at the cap, Retry-After counts from the end of the least recently used request; one in flight is not due', () => {
    let now = 0;
    const idleMs = 60_000;
    const namespaces = new Namespaces({ max: 2, idleMs, create: (name) => ({ name }), now: () => now });
    try {
      const held = namespaces.begin('a');
      now = 10_000;
      namespaces.enter('b');
      now = 20_000;
      const refusal = (() => {
        try {
          namespaces.begin('c');
        } catch (error) {
          return error as HttpError;
        }
        return undefined;
      })();
      expect(refusal).toMatchObject({ status: 503, code: 'namespace_limit_reached' });
      // b ended at 10 s: due at 10 s + the idle time + a sweep, 50 s + a sweep from now.
      expect(refusal?.headers?.['retry-after']).toBe(String((idleMs - 10_000 + sweepIntervalMs(idleMs)) / 1000));
      held.end(true);
    } finally {
      namespaces.close();
    }
  });

  test('a closed state writer writes nothing more; close waits for the write under way', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const path = join(freshDirectory(), 'state.json');
    const platform: Platform = createPlatform();
    const writes: string[] = [];
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const writer = new StateWriter(platform, path, {
      warn: () => {},
      fs: {
        ...nodeFileSystem,
        async writeDurably(p, text) {
          writes.push(text);
          await gate;
          await nodeFileSystem.writeDurably(p, text);
        },
      },
    });
    const flushing = writer.flush();
    await until(() => expect(writes).toHaveLength(1));
    let closed = false;
    const closing = writer.close().then(() => {
      closed = true;
    });
    await vi.advanceTimersByTimeAsync(STATE_WRITE_DELAY_MS);
    expect(closed).toBe(false);
    open();
    await closing;
    // The write under way is over, the file whole, once close resolves.
    expect(readState(path).access_tokens).toEqual(platform.snapshot().access_tokens);
    await flushing;
    platform.mintToken({ scopes: ['/external/product/r'] });
    writer.changed();
    await vi.advanceTimersByTimeAsync(STATE_WRITE_DELAY_MS * 4);
    await writer.flush();
    expect(writes).toHaveLength(1);
    expect(readState(path).access_tokens).not.toEqual(platform.snapshot().access_tokens);
  });

  test('a write held in flight across the idle time keeps its namespace; it is in the state file after, and read back once the namespace is dropped as idle', async () => {
    // The server's real clock and its sweeps are fake here; the request is held by a gate.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const path = join(freshDirectory(), 'state.json');
    const gated = gatedPlatform();
    const server = await startServer({ port: 0, platform: gated.platform, stateFile: path, namespaceIdleSeconds: 1 });
    try {
      expect((await post(server, '/_ns/a/__admin/reset')).status).toBe(204);
      const held = post(server, '/_ns/a/test/held-write');
      await gated.entered;
      // Five idle times, a sweep every second, with the request in flight.
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await listed(server)).toMatchObject([{ name: 'a', in_flight: 1 }]);
      gated.release();
      const answer = await held;
      expect(answer.status).toBe(200);
      expect(await listed(server)).toMatchObject([{ name: 'a', in_flight: 0 }]);
      // The write is in the file (within the write delay), while the namespace is held.
      await until(() => expect(readState(`${path}.ns-a.json`).organisations[0]!.name).toBe(HELD_WRITE));
      // An idle time after the request's end, it is dropped (written first) and its file kept.
      await vi.advanceTimersByTimeAsync(1_000);
      await until(async () => expect(await listed(server)).toEqual([]));
      expect(readState(`${path}.ns-a.json`).organisations[0]!.name).toBe(HELD_WRITE);
      expect(await firstOrganisation(server, 'a')).toBe(HELD_WRITE);
    } finally {
      await server.close();
    }
  });
});
