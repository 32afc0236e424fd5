/**
 * The docs site's in-page runtime (built into `assets/runner.js`, loaded on the first "Run"): the
 * reference platform with its demo data, in the reader's browser, answering the example hosts; and
 * the runner of an example, compiled from TypeScript in the page (sucrase) and run with what it
 * imports taken from the same bundle: the SDK, the platform, zod and MSW (`msw/node`'s
 * `setupServer` is MSW's own interceptor-based one, which needs no service worker). Nothing leaves
 * the page: a request to another host is refused, as the examples never make one.
 */

import * as mswCore from 'msw';
import { formatWithOptions } from 'node-inspect-extracted';
import { transform } from 'sucrase';
import * as zod from 'zod';
import type { JournalEntry, Platform } from '../../mock/index.js';
import * as mock from '../../mock/index.js';
import * as sdk from '../../src/index.js';
import * as schemas from '../../src/schemas/index.js';
import * as signOn from '../../src/sign-on/index.js';
import { EXAMPLE_ENV, exampleFetch } from './example-environment.js';
import { setupServer } from './msw-browser.js';

/** A request an example sent, as the platform that answered it journaled it. */
export interface SentRequest {
  readonly method: string;
  /** The path and query, secret values redacted by the platform's journal. */
  readonly target: string;
  /** The body it sent, secret values redacted by the journal; null for none. */
  readonly body: string | null;
  readonly status: number;
  /** Why the platform refused it, when it did: the check that failed, and what it found. */
  readonly refusal: string | undefined;
}

/** What a run printed and sent. */
export interface RunResult {
  /** The lines the example printed (console.log, info, warn, error), as Node would print them. */
  readonly output: string;
  /** Whether it ended by throwing (the error is the output's last line). */
  readonly failed: boolean;
  /** The requests it sent, to the page's platform and to any platform it made itself. */
  readonly requests: readonly SentRequest[];
  /** How long it ran, in ms (not counting the compile). */
  readonly ms: number;
}

/** The page's platform, on the example hosts. */
const platform = mock.createPlatform({ seed: 'demo' });

// The page's fetch answers the example hosts from the page's platform; an example that sets up MSW
// itself puts its own handlers in front (MSW patches this fetch as it would the browser's).
const pageFetch = globalThis.fetch.bind(globalThis);
globalThis.fetch = exampleFetch(platform, (request) =>
  new URL(request.url).origin === location.origin
    ? pageFetch(request)
    : Promise.reject(new TypeError(`fetch ${request.url}: the examples in this page reach no other host`)),
);

/** Platforms and MSW servers the running example made itself: journaled, then closed after the run. */
let made: { platforms: Platform[]; servers: { close(): void }[] } = { platforms: [], servers: [] };

const mockModule = {
  ...mock,
  createPlatform: (...args: Parameters<typeof mock.createPlatform>) => {
    const own = mock.createPlatform(...args);
    made.platforms.push(own);
    return own;
  },
};
const mswNode = {
  setupServer: (...handlers: Parameters<typeof setupServer>) => {
    const server = setupServer(...handlers);
    made.servers.push(server);
    return server;
  },
};

/** What an example may import, by name. */
const MODULES: Record<string, unknown> = {
  'subscription-platform-sdk': sdk,
  'subscription-platform-sdk/sign-on': signOn,
  'subscription-platform-sdk/schemas': schemas,
  'subscription-platform-sdk/types': {},
  'subscription-platform-sdk/mock': mockModule,
  msw: mswCore,
  'msw/node': mswNode,
  zod,
};

function requireModule(name: string): unknown {
  const found = MODULES[name];
  if (found === undefined) throw new Error(`Cannot find module '${name}' in the page: run this example with Node`);
  return found;
}

/** Compiles an example to a function body: types stripped, imports as `require` calls. */
function compile(source: string): string {
  return transform(source, { transforms: ['typescript', 'imports'], production: true }).code;
}

/** How long an example may run before the control gives up on it (an edit that awaits forever). */
const RUN_LIMIT_MS = 30_000;

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<void>;

/**
 * Where a run's requests begin in a journal: after the entry that was its newest when the run
 * began (`after`, by correlation id), or at the start when there was none or it has been dropped
 * since. Not a length: a journal keeps its newest 1,000 entries, and once full its length stays.
 */
function startAfter(entries: readonly JournalEntry[], after: string | undefined): number {
  if (after === undefined) return 0;
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i]?.correlation_id === after) return i + 1;
  return 0;
}

/** The newest entry's correlation id, where a run's requests will begin. */
function newestOf(entries: readonly JournalEntry[]): string | undefined {
  return entries.at(-1)?.correlation_id;
}

/** The entries of a journal from `from` on, as a run shows them. */
function sentSince(entries: readonly JournalEntry[], from: number): SentRequest[] {
  return entries.slice(from).map((entry) => ({
    method: entry.method,
    target: entry.url.replace(/^https?:\/\/[^/]+/, ''),
    body: entry.body,
    status: entry.status,
    refusal: entry.refusal ? `${entry.refusal.check}: ${entry.refusal.detail}` : undefined,
  }));
}

/**
 * Runs an example: `before` (earlier blocks of its program, whose declarations it uses) silently,
 * then `source`, whose output and requests are the result. One that has not finished within
 * `limitMs` is given up (an edit that awaits forever): the control is free again. Runs started
 * together run one after the other.
 */
export function run(before: string, source: string, limitMs = RUN_LIMIT_MS): Promise<RunResult> {
  // One at a time: a run's output, requests and the platforms it made are its own.
  const result = queue.then(() => runNow(before, source, limitMs));
  queue = result.then(
    () => undefined,
    () => undefined,
  );
  return result;
}

/** The run under way, if any: the next waits for it. */
let queue: Promise<void> = Promise.resolve();

async function runNow(before: string, source: string, limitMs: number): Promise<RunResult> {
  const lines: string[] = [];
  let loud = before.trim() === '';
  const print = (...args: unknown[]) => {
    if (loud) lines.push(formatWithOptions({ colors: false }, ...args));
  };
  const console = { log: print, info: print, warn: print, error: print, debug: print };
  let journalAfter = newestOf(platform.requests.list());
  const docs = {
    /** Where the shown block begins: its output and requests from here on. */
    mark: () => {
      loud = true;
      journalAfter = newestOf(platform.requests.list());
    },
  };
  made = { platforms: [], servers: [] };
  const program = before.trim() === '' ? source : `${before}\n__docs.mark();\n${source}`;
  let failed = false;
  const started = performance.now();
  try {
    const body = compile(program);
    const exports = {};
    const running = new AsyncFunction('require', 'exports', 'module', 'console', 'process', '__docs', body)(
      requireModule,
      exports,
      { exports },
      console,
      { env: { ...EXAMPLE_ENV } },
      docs,
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the example did not finish within ${limitMs / 1000} s`)), limitMs);
    });
    await Promise.race([running, limit]).finally(() => clearTimeout(timer));
  } catch (error) {
    failed = true;
    loud = true;
    print(error instanceof Error ? `${error.name}: ${error.message}` : error);
  }
  const ms = performance.now() - started;
  const journal = platform.requests.list();
  const requests = sentSince(journal, startAfter(journal, journalAfter));
  for (const own of made.platforms) requests.push(...sentSince(own.requests.list(), 0));
  for (const server of made.servers) server.close();
  return { output: lines.join('\n'), failed, requests, ms };
}

/** The page's platform back to its demo data: records, tokens, the journal, faults and the clock. */
export function reset(): void {
  platform.reset();
}
