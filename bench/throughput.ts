/**
 * Throughput of a shared server under load, as a team's test suites would load `platform-mock`:
 * autocannon with 32 connections against seven servers, each in a process of its own, in
 * alternating rounds (the order turns each round, so drift in the machine's load falls on all):
 *
 * - the platform's standalone server (`platform-mock --seed demo`, the built CLI), the subject;
 * - a raw node:http server answering the very bytes the platform answers, the baseline: what any
 *   server on this machine costs;
 * - node:http parsing each request's body and serializing the same answer anew, with the
 *   platform's headers: a reference row, the most any server that answers fresh could serve;
 * - the platform's server with the platform behind it replaced by the same answer, prepared: a
 *   reference row, the most any platform behind this server's HTTP layer could serve (see
 *   {@link preparedAnswerServer});
 * - Fastify 5 with a route for each case answering the same answer, prepared: a reference row, what
 *   a server written with a framework costs (see {@link fastifyServer});
 * - Fastify 5 doing the least work the spec asks of each case (the token, the query's or the body's
 *   schema, the products, the journal): a reference row (see {@link fastifyMinimumServer});
 * - Prism 5 (`@stoplight/prism-cli`) mocking the package's own OpenAPI document, the reference a team
 *   would otherwise reach for. It is fetched with npx on first use; without the registry its row
 *   says so and the rest runs.
 *
 * Two cases: a read (get products, endpoint 2) and a write (update prices, endpoint 1, the same
 * valid body each time). The target is on the read and the write alike: the platform's throughput
 * at least 0.75x the raw server's (its time per request at most 1/0.75 of the raw server's).
 *
 * The load's client (autocannon, in this process) runs on one CPU and each server on another, where
 * Linux's `taskset` can pin them (see {@link pinCpus}); `BENCH_THROUGHPUT_PIN=0` leaves them to the
 * scheduler. `BENCH_THROUGHPUT_SECONDS` (default 6) and `BENCH_THROUGHPUT_ROUNDS` (default 3) set the
 * rounds.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { openApiDocument } from '../mock/openapi.js';
import { demoCredentials } from '../mock/seeds/demo.js';
import { builtCli, builtPackage } from './built.js';
import { progress, type Result } from './harness.js';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 3);
/** The read: get products (endpoint 2), the demo's packages. */
export const READ_PATH = '/external/api/v1/products?product_type=packages';
/** The write: update prices (endpoint 1), the same valid body each time. */
export const WRITE_PATH = '/external/api/v1/prices';
/** The write's body: one price period of the demo's package. */
export const WRITE_BODY = JSON.stringify({
  package_integration_code: 'PREMIUM-DIGITAL',
  price_periods: [
    { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 12.9 },
  ],
});
/** The scopes of the demo client's token for both cases. */
export const SCOPE = '/external/product/r /external/price/w';

/** The platform's throughput must be at least this share of the raw server's. */
const TARGET_SHARE = 0.75;
const PRISM = '@stoplight/prism-cli@5.12.0';

const root = new URL('..', import.meta.url);

/** A request of a case, as autocannon sends it. */
interface Load {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** One server of the comparison: where it listens, and how to stop it. */
interface Target {
  name: string;
  url: string;
  child: ChildProcess;
}

/** The CPUs of the load's client and of the servers, when pinned; `undefined` when left to the scheduler. */
interface Pinned {
  client: string;
  server: string;
  /** This process's CPUs before it was pinned, given back after. */
  before: string;
}

/** The CPUs of this run, while it runs. */
let pinned: Pinned | undefined;

/** The CPUs of a `taskset -p -c` answer (`pid 12's current affinity list: 0,2-3`), one by one. */
export function cpusOf(answer: string): string[] {
  const list = answer.slice(answer.lastIndexOf(':') + 1).trim();
  return list.split(',').flatMap((part) => {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (range === null) return [];
    const first = Number(range[1]);
    const last = Number(range[2] ?? range[1]);
    return last < first ? [] : Array.from({ length: last - first + 1 }, (_, i) => String(first + i));
  });
}

/**
 * Pins this process (every thread of it: the load's client) to one CPU it may run on, and names
 * another for the servers, so that where the scheduler puts them does not move the rounds. In
 * short runs of 4 s on 2026-11-28, a raw node:http server's rounds left to the scheduler served
 * 33,000 to 49,000 requests a second, and the platform's HTTP layer alone 19,000 to 34,000;
 * pinned, 47,000 to 51,000 and 33,000 to 38,000. `undefined` (nothing pinned) off Linux, without
 * `taskset`, with fewer than two CPUs, or with `BENCH_THROUGHPUT_PIN=0`.
 */
function pinCpus(): Pinned | undefined {
  if (process.env.BENCH_THROUGHPUT_PIN === '0' || process.platform !== 'linux') return undefined;
  try {
    const before = cpusOf(execFileSync('taskset', ['-p', '-c', String(process.pid)], { encoding: 'utf8' }));
    const [client, server] = before;
    if (client === undefined || server === undefined) return undefined;
    execFileSync('taskset', ['-a', '-p', '-c', client, String(process.pid)], { stdio: 'ignore' });
    return { client, server, before: before.join(',') };
  } catch {
    return undefined;
  }
}

/** Gives this process back the CPUs it had before {@link pinCpus}. */
function unpin(pinned: Pinned | undefined): void {
  if (pinned) execFileSync('taskset', ['-a', '-p', '-c', pinned.before, String(process.pid)], { stdio: 'ignore' });
}

/** The command and arguments that start `command` on the servers' CPU, when pinned. */
function onServerCpu(command: string, args: string[]): [string, string[]] {
  return pinned ? ['taskset', ['-c', pinned.server, command, ...args]] : [command, args];
}

/** The servers started and not yet stopped: stopped too if the bench exits or is interrupted. */
const running = new Set<ChildProcess>();

/**
 * Stops a server with every process it started: npx runs Prism as a child of its own, which a
 * signal to npx alone leaves running (and holding the pipes the bench reads, so the bench never
 * exited). Each server is the leader of a process group (`detached`), and the group is signalled.
 */
function stop(child: ChildProcess): void {
  running.delete(child);
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  } catch {
    // No process group (Windows), or it is gone already.
    child.kill();
  }
  child.stdout?.destroy();
  child.stderr?.destroy();
}

function stopAll(): void {
  for (const child of running) stop(child);
}

/** An interrupted bench stops its servers, then ends as the signal would have ended it. */
function interrupted(signal: NodeJS.Signals): void {
  stopAll();
  process.kill(process.pid, signal);
}

/** A child process, started; resolves with the first `http://host:port` it prints on stdout. */
function serve(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Target> {
  const child = spawn(...onServerCpu(command, args), {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`${name} did not start within 120 s`)), 120_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      stop(child);
      reject(error);
    };
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      const url = /https?:\/\/(?:127\.0\.0\.1|localhost):\d+/.exec(seen)?.[0];
      if (!url) return;
      clearTimeout(timer);
      child.stdout?.off('data', look);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve({ name, url: url.replace('localhost', '127.0.0.1'), child });
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
    });
    child.on('exit', (code) => fail(new Error(`${name} exited (${code}) before listening: ${seen.slice(-400)}`)));
  });
}

/** A port nothing listens on now (Prism takes no port 0). */
function freePort(): Promise<number> {
  const probe = createServer();
  return new Promise((resolve) =>
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    }),
  );
}

/**
 * The floor of any server that answers fresh: node:http parsing each request's JSON body, then
 * serializing the same answer anew (from the parsed object, as a platform serializes what its
 * route built) with the headers the platform sends (a correlation id, CORS). Nothing else: no
 * routing, authentication, validation, state or journal.
 */
function serializingServer(bodies: Record<string, { status: number; body: string }>): Promise<Target> {
  const program = `
    const answers = Object.fromEntries(
      Object.entries(JSON.parse(process.env.ANSWERS)).map(([m, a]) => [m, { status: a.status, value: JSON.parse(a.body) }]),
    );
    const server = require('node:http').createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => { text += chunk; });
      req.on('end', () => {
        if (text !== '') JSON.parse(text);
        const { status, value } = answers[req.method];
        const body = JSON.stringify(value);
        res.writeHead(status, [
          'x-correlation-id', crypto.randomUUID(),
          'access-control-allow-origin', '*',
          'access-control-expose-headers', 'x-correlation-id, www-authenticate, retry-after, allow',
          'content-type', 'application/json',
          'content-length', String(Buffer.byteLength(body)),
        ]);
        res.end(body);
      });
    });
    server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`;
  return serve(SERIALIZING, process.execPath, ['-e', program], { ANSWERS: JSON.stringify(bodies) });
}

/** The name of the serializing server's rows. */
const SERIALIZING = 'node:http serializing each answer';

/** The raw server: one handler answering `status` and `body` to every request, after reading its body. */
function rawServer(bodies: Record<string, { status: number; body: string }>): Promise<Target> {
  const program = `
    const answers = JSON.parse(process.env.ANSWERS);
    const server = require('node:http').createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const { status, body } = answers[req.method];
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`;
  return serve('raw node:http', process.execPath, ['-e', program], { ANSWERS: JSON.stringify(bodies) });
}

/** An answer of the platform as the prepared-answer server replays it: its status, body and the headers the platform sets. */
export interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** The headers of an answer that node:http sets, not the platform. */
export const NODE_HEADERS: ReadonlySet<string> = new Set([
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** The name of the prepared-answer server's rows. */
const PREPARED = "platform-mock's HTTP layer, prepared answers";

/**
 * The platform's own server (the built `startServer`, as the CLI starts it), with the platform
 * behind it replaced by a function that gives back the answer prepared for the request's method,
 * with a new correlation id. Every request still goes through the server's HTTP layer (node:http,
 * the host check, the connection and held-body limits, each namespace's share, the body read
 * whole), and through nothing else: no routing, authentication, validation, state, journal or
 * serialization. So its row is the ceiling of any platform behind this layer, and the gap between
 * it and the raw server is the layer's own. The platform is replaced through its internals (not
 * part of the package's API), found by their symbol's description.
 */
function preparedAnswerServer(answers: Record<string, Answer>): Promise<Target> {
  const dist = pathToFileURL(`${builtPackage()}dist/`).href;
  const program = `
    const { createPlatform } = await import(${JSON.stringify(`${dist}mock/index.js`)});
    const { startServer } = await import(${JSON.stringify(`${dist}mock/node.js`)});
    const answers = JSON.parse(process.env.ANSWERS);
    const platform = createPlatform({ seed: 'demo' });
    const internals = Object.getOwnPropertySymbols(platform).find((s) => s.description === 'platform internals');
    if (!internals) throw new Error('the platform has no internals to replace');
    platform[internals].handle = async (request) => {
      const { status, headers, body } = answers[request.method];
      return { status, headers: { ...headers, 'x-correlation-id': crypto.randomUUID() }, body, drop: false };
    };
    const server = await startServer({ port: 0, platform });
    console.log(server.url);`;
  return serve(PREPARED, process.execPath, ['--input-type=module', '-e', program], {
    ANSWERS: JSON.stringify(answers),
  });
}

/** The name of the Fastify server's rows. */
const FASTIFY = 'Fastify 5, one route a case, prepared answers';

/**
 * What a server written with a Node framework built for speed costs: Fastify (a dev dependency,
 * pinned) with one route for each case's path, answering the answer prepared for it with the
 * platform's headers and a new correlation id, after Fastify's own JSON parse of the write's
 * body. Nothing else: no host check, connection limits, authentication or state. Beside the
 * prepared-answer row it tells what the platform's HTTP layer costs against a framework's.
 */
function fastifyServer(cases: Record<string, Load>, answers: Record<string, Answer>): Promise<Target> {
  const routes = Object.values(cases).map((load) => ({ method: load.method, url: load.path.split('?')[0] }));
  const program = `
    const answers = JSON.parse(process.env.ANSWERS);
    const app = require('fastify')({ logger: false });
    for (const { method, url } of JSON.parse(process.env.ROUTES)) {
      const { status, headers, body } = answers[method];
      app.route({ method, url, handler: (request, reply) => {
        reply.code(status).headers(headers).header('x-correlation-id', crypto.randomUUID()).send(body);
      } });
    }
    app.listen({ port: 0, host: '127.0.0.1' }).then((url) => console.log(url));`;
  return serve(FASTIFY, process.execPath, ['-e', program], {
    ANSWERS: JSON.stringify(answers),
    ROUTES: JSON.stringify(routes),
  });
}

/** The name of the rows of Fastify doing the spec's least work. */
const FASTIFY_MINIMUM = "Fastify 5, the spec's least work (token, schema, journal)";

/**
 * The least work the spec asks of both cases, on Fastify (`bench/fastify-minimum.cjs`): the
 * bearer token looked up and its scope checked, the query or body checked against a JSON schema
 * (Ajv, as Fastify compiles it), the products selected from their kept JSON or changed and written
 * anew, the request journaled with a correlation id. Without the platform's host check, connection
 * limits, namespaces, faults and redaction: what an implementation of the two endpoints on a fast
 * framework serves, the reference for how much of the target the spec's own work leaves.
 */
function fastifyMinimumServer(answers: Record<string, Answer>, token: string): Promise<Target> {
  const read = answers.GET;
  if (read === undefined) throw new Error('no answer of the read to take the products from');
  return serve(FASTIFY_MINIMUM, process.execPath, [fileURLToPath(new URL('fastify-minimum.cjs', import.meta.url))], {
    ANSWERS: JSON.stringify(answers),
    PRODUCTS: read.body,
    TOKEN: token,
    SCOPES: SCOPE,
  });
}

/** Requests per second and latency of one round of `load` against `url`. */
async function round(url: string, load: Load): Promise<{ rps: number; p99: number; errors: number }> {
  const result = await autocannon({
    url: `${url}${load.path}`,
    method: load.method,
    headers: load.headers,
    ...(load.body === undefined ? {} : { body: load.body }),
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;

/** The token of the demo client, from the platform's own token endpoint. */
async function demoToken(url: string, scope: string): Promise<string> {
  const answer = await fetch(`${url}/api/authorization/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'none',
      client_id: demoCredentials.clientId,
      client_secret: demoCredentials.clientSecret,
      scope,
    }),
  });
  if (!answer.ok) throw new Error(`the demo token: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** One row of the throughput table. */
export interface ThroughputRow {
  case: string;
  server: string;
  'requests/s': string;
  'p99 ms': string;
  'share of raw': string;
  /** Connection errors and answers outside 2xx (Prism refuses what its document's examples do not cover). */
  errors: string;
}

/** The read and the write against the platform, the raw server and Prism; the verdicts as results. */
export async function measureThroughput(): Promise<{ results: Result[]; rows: ThroughputRow[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-throughput-'));
  const targets: Target[] = [];
  process.once('exit', stopAll);
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  pinned = pinCpus();
  progress(
    pinned
      ? `  the load's client on CPU ${pinned.client}, each server on CPU ${pinned.server} (BENCH_THROUGHPUT_PIN=0: neither pinned)\n`
      : '  client and servers left to the scheduler (not pinned)\n',
  );
  try {
    // As `npx platform-mock` runs it: the built CLI.
    const platform = await serve('platform-mock', process.execPath, [builtCli(), '--port', '0', '--seed', 'demo']);
    targets.push(platform);
    const token = await demoToken(platform.url, SCOPE);
    const auth = { accept: 'application/json', authorization: `Bearer ${token}` };
    const cases: Record<string, Load> = {
      'read (get products)': { method: 'GET', path: READ_PATH, headers: auth },
      'write (update prices)': {
        method: 'POST',
        path: WRITE_PATH,
        headers: { ...auth, 'content-type': 'application/json' },
        body: WRITE_BODY,
      },
    };
    // The raw server answers what the platform answers to each case.
    const answers: Record<string, Answer> = {};
    for (const load of Object.values(cases)) {
      const answer = await fetch(`${platform.url}${load.path}`, {
        method: load.method,
        headers: load.headers,
        ...(load.body === undefined ? {} : { body: load.body }),
      });
      const headers: Record<string, string> = {};
      // The headers the platform sets; node:http sets the others (the length, the date, keep-alive).
      for (const [name, value] of answer.headers)
        if (!NODE_HEADERS.has(name) && name !== 'x-correlation-id') headers[name] = value;
      answers[load.method] = { status: answer.status, body: await answer.text(), headers };
    }
    targets.push(await rawServer(answers));
    targets.push(await serializingServer(answers));
    targets.push(await preparedAnswerServer(answers));
    for (const [name, start] of [
      [FASTIFY, () => fastifyServer(cases, answers)],
      [FASTIFY_MINIMUM, () => fastifyMinimumServer(answers, token)],
    ] as const) {
      try {
        targets.push(await start());
      } catch (error) {
        progress(`  ${name}: unavailable: ${(error as Error).message.split('\n')[0]}\n`);
      }
    }
    const spec = join(dir, 'openapi.json');
    writeFileSync(spec, JSON.stringify(openApiDocument()));
    try {
      progress(`  starting Prism (${PRISM}, fetched with npx on first use) `);
      const port = String(await freePort());
      targets.push(
        await serve('Prism 5 (same OpenAPI document)', 'npx', [
          '-y',
          PRISM,
          'mock',
          '-h',
          '127.0.0.1',
          '-p',
          port,
          spec,
        ]),
      );
      progress('ok\n');
    } catch (error) {
      progress(`unavailable: ${(error as Error).message.split('\n')[0]}\n`);
    }
    return await compareAll(cases, targets);
  } finally {
    stopAll();
    unpin(pinned);
    pinned = undefined;
    process.off('exit', stopAll);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function compareAll(
  cases: Record<string, Load>,
  targets: Target[],
): Promise<{ results: Result[]; rows: ThroughputRow[] }> {
  const results: Result[] = [];
  const rows: ThroughputRow[] = [];
  for (const [name, load] of Object.entries(cases)) {
    progress(`  throughput, ${name}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per server `);
    const runs = new Map<string, { rps: number[]; p99: number[]; errors: number }>();
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 ? [...targets].reverse() : targets;
      for (const t of order) {
        const run = await round(t.url, load);
        const seen = runs.get(t.name) ?? { rps: [], p99: [], errors: 0 };
        seen.rps.push(run.rps);
        seen.p99.push(run.p99);
        seen.errors += run.errors;
        runs.set(t.name, seen);
        progress('.');
      }
    }
    progress('\n');
    const raw = runs.get('raw node:http')!;
    const subject = runs.get('platform-mock')!;
    if (subject.errors > 0) throw new Error(`platform-mock answered ${subject.errors} errors under load (${name})`);
    for (const t of targets) {
      const run = runs.get(t.name)!;
      rows.push({
        case: name,
        server: t.name,
        'requests/s': median(run.rps).toFixed(0),
        'p99 ms': median(run.p99).toFixed(0),
        'share of raw': `${(median(run.rps) / median(raw.rps)).toFixed(2)}x`,
        errors: String(run.errors),
      });
    }
    // As the harness reads results: time per request, the raw server's the baseline.
    const perRound = subject.rps.map((rps, i) => raw.rps[i]! / rps);
    results.push({
      name: `standalone server at ${CONNECTIONS} connections, ${name}: time per request vs raw node:http`,
      baseline: 1e6 / median(raw.rps),
      subject: 1e6 / median(subject.rps),
      unit: 'us/req',
      ratio: median(perRound),
      spread: [Math.min(...perRound), Math.max(...perRound)],
      target: Number((1 / TARGET_SHARE).toFixed(2)),
    });
  }
  return { results, rows };
}
