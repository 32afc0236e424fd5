/**
 * The standalone server's own work per request, without the kernel or a load generator: each
 * server is handed 32 connections that are streams in memory (node:http takes any duplex stream as
 * a connection), and each call of a round sends a request on every one of them at once and waits
 * for the 32 answers. What a round takes is the servers' work alone, steadier from run to run than
 * the 32-connection throughput (`bench/throughput.ts`), which moves with the machine's load and with
 * how often the kernel must wake the idle client. Three servers, in the same process and the same
 * rounds, for the throughput's read and write:
 *
 * - raw node:http answering the platform's answer, as bytes prepared: the baseline;
 * - the platform's server (the built `startServer`) with the platform behind it replaced by the same
 *   answers, prepared: its HTTP layer alone (see `preparedAnswerServer` in `bench/throughput.ts`);
 * - the platform's server as the CLI starts it, the demo seed.
 *
 * A reference, without a target: what it shows is where the throughput's target is lost.
 */
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { Duplex } from 'node:stream';
import { builtMock, builtMockNode } from './built.js';
import { compareTogether, type Result } from './harness.js';
import { type Answer, NODE_HEADERS, READ_PATH, SCOPE, WRITE_BODY, WRITE_PATH } from './throughput.js';

/** The requests open at once, one a connection, as in the throughput's load. */
const CONNECTIONS = 32;

/** The throughput's two cases, as the bytes of a request with `token`. */
const CASES: ReadonlyArray<{ name: string; request: (token: string) => string }> = [
  {
    name: 'read (get products)',
    request: (token) =>
      `GET ${READ_PATH} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: application/json\r\nauthorization: Bearer ${token}\r\n\r\n`,
  },
  {
    name: 'write (update prices)',
    request: (token) =>
      `POST ${WRITE_PATH} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: application/json\r\nauthorization: Bearer ${token}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(WRITE_BODY)}\r\n\r\n${WRITE_BODY}`,
  },
];

/**
 * A connection in memory: what the test writes to it the server reads, and each answer the server
 * writes (a head and a body of `content-length` bytes) settles the request waiting for it.
 */
class MemoryConnection extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 40_000;
  readonly remoteFamily = 'IPv4';
  readonly localAddress = '127.0.0.1';
  readonly localPort = 80;
  #written = '';
  #waiting: (() => void) | undefined;
  /** Everything written to the connection, when asked for (`record`). */
  transcript = '';
  /** The answers that were not `200 OK`: a round that has one measured something else. */
  failed = 0;

  constructor(readonly record = false) {
    super({ decodeStrings: false });
  }

  /** Sends `request` and resolves once its whole answer is written. */
  send(request: Buffer): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting = resolve;
      this.push(request);
    });
  }

  // What node:http calls on a net.Socket; a stream in memory has no timer or option to set.
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }

  override _read(): void {}

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.#take(chunk);
    done();
  }

  override _writev(chunks: { chunk: Buffer | string }[], done: () => void): void {
    for (const { chunk } of chunks) this.#take(chunk);
    done();
  }

  #take(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    if (this.record) this.transcript += text;
    this.#written += text;
    const head = this.#written.indexOf('\r\n\r\n');
    if (head < 0) return;
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(this.#written.slice(0, head))?.[1] ?? 0);
    if (this.#written.length < head + 4 + length) return;
    if (!this.#written.startsWith('HTTP/1.1 200 ')) this.failed++;
    this.#written = this.#written.slice(head + 4 + length);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.();
  }
}

/** The node:http server that `start` creates, caught as node:http makes it (`startServer` does not hand it out). */
async function caught<T>(start: () => Promise<T>): Promise<{ server: http.Server; started: T }> {
  const create = http.createServer;
  let server: http.Server | undefined;
  const catching = (...args: Parameters<typeof http.createServer>) => {
    server = (create as (...a: typeof args) => http.Server)(...args);
    return server;
  };
  Object.assign(http, { createServer: catching });
  syncBuiltinESMExports();
  try {
    const started = await start();
    if (!server) throw new Error('the server was not made by node:http createServer');
    return { server, started };
  } finally {
    Object.assign(http, { createServer: create });
    syncBuiltinESMExports();
  }
}

/** The answer of `server` to `request`, through a connection in memory; a 200, or this throws. */
async function answerTo(server: http.Server, request: string): Promise<Answer> {
  const connection = new MemoryConnection(true);
  server.emit('connection', connection);
  await connection.send(Buffer.from(request, 'latin1'));
  connection.destroy();
  const text = connection.transcript;
  const at = text.indexOf('\r\n\r\n');
  const head = text.slice(0, at);
  const body = text.slice(at + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    const name = line.slice(0, at).toLowerCase();
    if (!NODE_HEADERS.has(name) && name !== 'x-correlation-id') headers[name] = line.slice(at + 1).trim();
  }
  const status = Number(statusLine.split(' ')[1]);
  if (status !== 200) throw new Error(`the platform answered ${statusLine}: ${body.slice(0, 300)}`);
  return { status, headers, body };
}

/** The platform's server, the same with prepared answers, and raw node:http, for each case; compared. */
export async function measureInMemory(): Promise<Result[]> {
  const [{ createPlatform }, { startServer }] = await Promise.all([builtMock(), builtMockNode()]);
  const platform = createPlatform({ seed: 'demo' });
  const token = platform.mintToken({ scopes: SCOPE.split(' ') }).access_token;
  const subject = await caught(() => startServer({ port: 0, platform }));
  const answers = new Map<string, Answer>();
  for (const c of CASES) {
    const request = c.request(token);
    answers.set(request.slice(0, request.indexOf(' ')), await answerTo(subject.server, request));
  }

  const prepared = createPlatform({ seed: 'demo' });
  const internals = Object.getOwnPropertySymbols(prepared).find((s) => s.description === 'platform internals');
  if (!internals) throw new Error('the platform has no internals to replace');
  Object.assign((prepared as unknown as Record<symbol, object>)[internals]!, {
    handle: async (request: { method: string }) => {
      const { status, headers, body } = answers.get(request.method)!;
      return { status, headers: { ...headers, 'x-correlation-id': crypto.randomUUID() }, body, drop: false };
    },
  });
  const layer = await caught(() => startServer({ port: 0, platform: prepared }));
  const raw = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const { status, body } = answers.get(req.method ?? 'GET')!;
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });

  const results: Result[] = [];
  try {
    for (const c of CASES) {
      const request = Buffer.from(c.request(token), 'latin1');
      // Each round's call sends a request on each of 32 connections at once, as the throughput's
      // load keeps 32 requests open, and resolves once every answer is written.
      const opened: MemoryConnection[] = [];
      const on = (server: http.Server) => {
        const connections = Array.from({ length: CONNECTIONS }, () => new MemoryConnection());
        for (const connection of connections) server.emit('connection', connection);
        opened.push(...connections);
        return () => Promise.all(connections.map((connection) => connection.send(request)));
      };
      const { results: rows } = await compareTogether(
        { name: `raw node:http, ${c.name}`, run: on(raw) },
        [
          { name: `reference: the platform's HTTP layer, prepared answers, ${c.name}`, run: on(layer.server) },
          { name: `reference: platform-mock, ${c.name}`, run: on(subject.server) },
        ],
        { rounds: 15, ops: 200 },
      );
      const failed = opened.reduce((sum, connection) => sum + connection.failed, 0);
      if (failed > 0) throw new Error(`${failed} answers other than 200 OK in memory (${c.name})`);
      for (const connection of opened) connection.destroy();
      // Named as what they are: a call is one request on each connection, in memory.
      for (const row of rows)
        results.push({
          ...row,
          name: `${row.name}, ${CONNECTIONS} connections in memory`,
          unit: `us/${CONNECTIONS} req`,
        });
    }
  } finally {
    await Promise.all([subject.started.close(), layer.started.close()]);
    raw.close();
  }
  return results;
}
