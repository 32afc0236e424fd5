/**
 * `npx tsx bench/state-file.ts`: what writing state files costs the server's event loop. Not run by
 * the test suite.
 *
 * 1. The main thread's cost, per write, of each way to take a copy of an ~8 MB state document
 *    (median of a few runs): the snapshot and indented text the writer used to make, and the
 *    candidates for a copy a worker can turn into the file's text.
 * 2. The root's latency under load: a server with `--state-file` and six namespaces of ~8 MB each,
 *    every one changed every 100 ms (an access token minted), so that each writes its file about
 *    every half second, while 2,000 `GET /__admin/clock` go to the root: one after the other from
 *    this process, then sent every 5 ms (`--every-ms`) from another process and timed from when
 *    each was due (a stall holds up every request due during it, which a sequential loop, waiting
 *    for each answer, does not send). Their p50, p99 and maximum, the event loop's delay
 *    meanwhile, and how many state files were replaced.
 *
 *   npx tsx bench/state-file.ts                     both
 *   npx tsx bench/state-file.ts --root <dir>        the server of another checkout (its mock/)
 *   npx tsx bench/state-file.ts --skip-costs --namespaces 6 --products 3300 --requests 2000 --every-ms 5
 *
 * The server runs in this process, and so does the sequential client (its own work is in every
 * figure, before and after alike).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { serialize } from 'node:v8';
import { MessageChannel } from 'node:worker_threads';
import { createPlatform } from '../mock/index.js';
import type { startServer as StartServer } from '../mock/node/server.js';
import { documentWith } from './documents.js';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: '.' },
    namespaces: { type: 'string', default: '6' },
    products: { type: 'string', default: '3300' },
    requests: { type: 'string', default: '2000' },
    'every-ms': { type: 'string', default: '5' },
    'skip-costs': { type: 'boolean', default: false },
    'skip-latency': { type: 'boolean', default: false },
  },
});

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The main thread's time for `f`, median of `runs`, in ms. */
function timed(f: () => unknown, runs = 9): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    f();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function costs(products: number): void {
  const platform = createPlatform();
  platform.restore(documentWith(products));
  const document = platform.snapshot();
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const flat = JSON.stringify(document);
  const again = JSON.stringify(document);
  const { port1, port2 } = new MessageChannel();
  port2.on('message', () => {});
  const rows: [string, number][] = [
    [
      'snapshot() + indented JSON.stringify (the writer before)',
      timed(() => JSON.stringify(platform.snapshot(), null, 2)),
    ],
    ['snapshot() alone (structuredClone of the document)', timed(() => platform.snapshot())],
    ['JSON.stringify(document, null, 2) alone', timed(() => JSON.stringify(document, null, 2))],
    ['postMessage(document) (its structured clone)', timed(() => port1.postMessage(document))],
    ['v8.serialize(document)', timed(() => serialize(document))],
    ['JSON.stringify(document), one line', timed(() => JSON.stringify(document))],
    ['postMessage(one-line text)', timed(() => port1.postMessage(flat))],
    ['one-line text === the last one written', timed(() => flat === again)],
  ];
  port1.close();
  console.log(
    `main-thread cost per write, ${products} products: ${(text.length / 1e6).toFixed(1)} MB indented, ${(flat.length / 1e6).toFixed(1)} MB on one line (median of 9 runs)`,
  );
  for (const [name, ms] of rows) console.log(`  ${name.padEnd(60)} ${ms.toFixed(1).padStart(7)} ms`);
}

async function latency(
  root: string,
  namespaces: number,
  products: number,
  requests: number,
  everyMs: number,
): Promise<void> {
  const { startServer } = (await import(pathToFileURL(resolve(root, 'mock/node/server.ts')).href)) as {
    startServer: typeof StartServer;
  };
  const directory = mkdtempSync(join(tmpdir(), 'bench-state-file-'));
  const server = await startServer({ port: 0, stateFile: join(directory, 'state.json') });
  const names = Array.from({ length: namespaces }, (_, i) => `bench-${i}`);
  const document = documentWith(products);
  for (const name of names) {
    const answer = await fetch(`${server.url}/_ns/${name}/__admin/clock`);
    if (answer.status !== 200) throw new Error(`namespace ${name}: ${answer.status}`);
    server.namespace(name)?.restore(structuredClone(document));
  }
  // Each namespace changed once and written, before the measurement.
  await Promise.all(names.map((name) => mint(server.url, name)));
  const files = () => readdirSync(directory).filter((f) => NAMESPACE_FILE.test(f));
  while (files().length < namespaces) await new Promise((r) => setTimeout(r, 100));
  const sizes = files().map((f) => statSync(join(directory, f)).size / 1e6);
  let replaced = 0;
  const watcher = watch(directory, (event, file) => {
    if (event === 'rename' && file && NAMESPACE_FILE.test(file)) replaced += 1;
  });
  let running = true;
  const changers = names.map(async (name) => {
    while (running) {
      await mint(server.url, name);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  const url = `${server.url}/__admin/clock`;
  console.log(
    `root GET /__admin/clock, ${namespaces} namespaces of ${sizes.map((s) => s.toFixed(1)).join('/')} MB changing every 100 ms (${root}):`,
  );
  const ways: [string, () => Promise<number[]>][] = [
    [`${requests} sequential, from this process`, () => sequential(url, requests)],
    [
      `${requests} sent every ${everyMs} ms from another process, timed from when each was due`,
      () => openLoop(url, requests, everyMs),
    ],
  ];
  for (const [how, measure] of ways) {
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const before = replaced;
    const began = performance.now();
    const samples = (await measure()).sort((a, b) => a - b);
    const seconds = (performance.now() - began) / 1000;
    loop.disable();
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const over = (limit: number) => samples.filter((s) => s > limit).length;
    const delay = (p: number) => ms(loop.percentile(p) / 1e6);
    console.log(`  ${how}:`);
    console.log(
      `    p50 ${ms(percentile(samples, 50))}  p90 ${ms(percentile(samples, 90))}  p99 ${ms(percentile(samples, 99))}  p99.9 ${ms(percentile(samples, 99.9))}  max ${ms(samples.at(-1)!)}`,
    );
    console.log(
      `    over 10 ms: ${over(10)}, over 50 ms: ${over(50)}; ${seconds.toFixed(1)} s, ${replaced - before} namespace state files replaced meanwhile`,
    );
    console.log(
      `    event loop delay (sampled every 5 ms): p50 ${delay(50)}  p99 ${delay(99)}  max ${ms(loop.max / 1e6)}`,
    );
  }
  running = false;
  await Promise.all(changers);
  watcher.close();
  await server.close();
  rmSync(directory, { recursive: true, force: true });
}

/** Each request's time, one request after the other (a stall delays the one request under way). */
async function sequential(url: string, requests: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    const answer = await fetch(url);
    await answer.arrayBuffer();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** The client of {@link openLoop}: plain JS, run by another node process (whose timers the server's stalls do not hold). */
const OPEN_LOOP_CLIENT = `
const url = process.env.BENCH_URL, n = Number(process.env.BENCH_REQUESTS), every = Number(process.env.BENCH_EVERY_MS);
const samples = [];
// Warmed up first: fetch loads itself on its first call.
for (let i = 0; i < 20; i++) await fetch(url).then((r) => r.arrayBuffer());
const start = performance.now() + 20;
let sent = 0;
await new Promise((done) => {
  const tick = () => {
    while (sent < n && start + sent * every <= performance.now()) {
      const due = start + sent * every;
      sent += 1;
      // Tried again once when a kept-alive connection the server closed meanwhile fails.
      const once = () => fetch(url).then((r) => r.arrayBuffer());
      once().catch(once).then(() => {
        samples.push(performance.now() - due);
        if (samples.length === n) done();
      });
    }
    if (sent < n) setTimeout(tick, 1);
  };
  setTimeout(tick, 20);
});
process.stdout.write(JSON.stringify(samples));
`;

/**
 * Each request's time from when it was due, requests being sent every `everyMs` from another
 * process whatever the answers: a stall delays every request due during it, as it does a server's
 * many clients (a sequential loop measures one of them).
 */
async function openLoop(url: string, requests: number, everyMs: number): Promise<number[]> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', OPEN_LOOP_CLIENT], {
    env: { ...process.env, BENCH_URL: url, BENCH_REQUESTS: String(requests), BENCH_EVERY_MS: String(everyMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the open-loop client exited with ${code}`);
  return JSON.parse(out) as number[];
}

/** A namespace's state file (not a temporary file beside it). */
const NAMESPACE_FILE = /\.ns-[^.]+\.json$/;

async function mint(url: string, name: string): Promise<void> {
  const answer = await fetch(`${url}/_ns/${name}/__admin/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scopes: ['/external/product/r'] }),
  });
  if (answer.status !== 200) throw new Error(`mint in ${name}: ${answer.status} ${await answer.text()}`);
}

const products = Number(values.products);
if (!values['skip-costs']) costs(products);
if (!values['skip-latency'])
  await latency(values.root, Number(values.namespaces), products, Number(values.requests), Number(values['every-ms']));
