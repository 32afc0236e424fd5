/**
 * The thread that turns a state into a state file's text, so that the server's event loop does not:
 * given the state document as JSON on one line (what the main thread copies the live state into,
 * the cheapest consistent copy there is: `bench/state-file.ts`), it answers the file's text,
 * indented, as UTF-8 bytes (handed over, not copied). One worker per process serves every writer;
 * it keeps no process alive while it waits, and ends once no write is under way or due.
 */
import { Worker } from 'node:worker_threads';

/**
 * The worker's code. A string run with `eval` (as a CommonJS script), so that the same code runs
 * from the TypeScript sources and from the bundled package, whatever file this module ends up in.
 */
const WORKER_SOURCE = `'use strict';
const { parentPort } = require('node:worker_threads');
const encoder = new TextEncoder();
parentPort.on('message', ({ id, json }) => {
  let bytes;
  try {
    bytes = encoder.encode(JSON.stringify(JSON.parse(json), null, 2) + '\\n');
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
    return;
  }
  parentPort.postMessage({ id, bytes }, [bytes.buffer]);
});
`;

/** What the worker answers to a render. */
interface Answer {
  readonly id: number;
  readonly bytes?: Uint8Array;
  readonly error?: string;
}

/** A render waiting for its answer. */
interface Job {
  resolve(bytes: Uint8Array): void;
  reject(error: Error): void;
}

/** A worker and the renders it has not answered yet. */
interface Running {
  readonly thread: Worker;
  readonly jobs: Map<number, Job>;
}

/**
 * The worker that renders state files' texts, started on the first render and ended when the last
 * hold is released. A writer holds it while a write of its is due or under way
 * ({@link StateRenderer.hold}, {@link StateRenderer.release}), so that a busy server keeps one
 * worker and an idle or closed one has none.
 */
export class StateRenderer {
  readonly #source: string;
  #worker: Running | undefined;
  #nextId = 0;
  #holds = 0;

  /** @param source - the worker's code (a test's, to make it fail); default the renderer's own */
  constructor(source: string = WORKER_SOURCE) {
    this.#source = source;
  }

  /** Whether a worker is running. */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** A write is due or under way: the worker, once started, stays until it is released. */
  hold(): void {
    this.#holds += 1;
  }

  /** That write is over, or no longer due; the last release ends the worker (resolved once it has ended). */
  release(): Promise<void> {
    this.#holds -= 1;
    const worker = this.#worker;
    if (this.#holds > 0 || worker === undefined) return Promise.resolve();
    this.#worker = undefined;
    return worker.thread.terminate().then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * The state file's text for the state document `json` (JSON on one line): indented by two spaces,
   * with a line end, in UTF-8. Rejects when the worker cannot be started or stops before it answers.
   * Call it while holding the renderer.
   */
  render(json: string): Promise<Uint8Array> {
    return new Promise<Uint8Array>((resolve, reject) => {
      const { thread, jobs } = this.#worker ?? this.#start();
      const id = this.#nextId++;
      jobs.set(id, { resolve, reject });
      // Waited for: the process does not end before the write it is part of.
      thread.ref();
      thread.postMessage({ id, json });
    });
  }

  #start(): Running {
    // Started without the parent's flags: a loader such as tsx's has nothing to do in it.
    const thread = new Worker(this.#source, { eval: true, execArgv: [] });
    thread.unref();
    const running: Running = { thread, jobs: new Map() };
    const { jobs } = running;
    const failAll = (error: Error) => {
      for (const job of jobs.values()) job.reject(error);
      jobs.clear();
      if (this.#worker === running) this.#worker = undefined;
    };
    thread.on('message', ({ id, bytes, error }: Answer) => {
      const job = jobs.get(id);
      jobs.delete(id);
      if (jobs.size === 0) thread.unref();
      if (!job) return;
      if (bytes) job.resolve(bytes);
      else job.reject(new Error(`the state file could not be rendered: ${error ?? 'no answer'}`));
    });
    thread.on('error', (error) => failAll(new Error(`the state file worker failed: ${error.message}`)));
    thread.on('exit', (code) => failAll(new Error(`the state file worker stopped (exit code ${code})`)));
    this.#worker = running;
    return running;
  }
}

/** The process's renderer, which every state writer shares unless given another. */
export const stateRenderer = new StateRenderer();
