/**
 * A platform's state kept in a file (`platform-mock --state-file <path>`): read at start when the
 * file exists, written back shortly after changes and when the server stops. Each write replaces the
 * file atomically (the text goes to a temporary file beside it, is flushed to the disk, then renamed
 * over it), so a process killed at any instant leaves the old state or the new one, never half of one.
 * The event loop only copies the state (as JSON on one line, in one step: a consistent copy); a
 * worker thread makes the file's indented text from it (`state-worker.ts`).
 */
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { setImmediate } from 'node:timers';
import type { StateDocumentInput } from '../core/document.js';
import { HttpError } from '../core/errors.js';
import { internalsOf } from '../core/internals.js';
import { ssoAudienceOf } from '../core/sso.js';
import type { Platform } from '../core/types.js';
import { jsonSyntaxError } from './json-syntax.js';
import { type StateRenderer, stateRenderer } from './state-worker.js';

/** How long after a change its state is written, at most, in ms: changes meanwhile go in the same write. */
export const STATE_WRITE_DELAY_MS = 500;

/**
 * The file operations an atomic write makes, apart so that a test can fail one of them. `D` is what
 * it writes: text, or for node:fs's also UTF-8 bytes.
 */
export interface StateFileSystem<D = string> {
  /** Writes `text` to a new file at `path` (readable by its owner only: it holds secrets) and flushes it to the disk. */
  writeDurably(path: string, text: D): Promise<void>;
  /** Replaces `to` with `from`, in one step. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file. */
  unlink(path: string): Promise<void>;
  /** Flushes a directory's entries (the rename) to the disk, where the system can. */
  syncDirectory(path: string): Promise<void>;
}

/** The node:fs operations: they write text, or its UTF-8 bytes as they are (a state file's, from the worker). */
export const nodeFileSystem: StateFileSystem<string | Uint8Array> = {
  async writeDurably(path, text) {
    const file = await open(path, 'wx', 0o600);
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
  },
  rename,
  unlink,
  async syncDirectory(path) {
    let directory: Awaited<ReturnType<typeof open>> | undefined;
    try {
      directory = await open(path, 'r');
      await directory.sync();
    } catch {
      // Not every system opens or flushes a directory (Windows): the rename is still atomic there.
    } finally {
      await directory?.close();
    }
  },
};

/**
 * Replaces the file at `path` with `text`, atomically: a temporary file beside it (same directory,
 * so the rename stays on one file system), flushed, then renamed over it. A failure removes the
 * temporary file and leaves `path` as it was.
 */
export async function writeAtomically<D extends string | Uint8Array = string>(
  path: string,
  text: D,
  fs: StateFileSystem<D> = nodeFileSystem,
): Promise<void> {
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.writeDurably(temporary, text);
    await fs.rename(temporary, path);
  } catch (error) {
    await fs.unlink(temporary).catch(() => undefined);
    throw error;
  }
  await fs.syncDirectory(dirname(path));
}

/** A state file that cannot be used: not JSON, or not a state document. */
export class StateFileError extends Error {
  /** @param message - what is wrong, naming the file */
  constructor(message: string) {
    super(message);
    this.name = 'StateFileError';
  }
}

/**
 * The text of the state file at `path`; undefined when there is none. Only a regular file is read:
 * a symbolic link is refused (it would serve another file's state), and so is a FIFO or a device
 * (opened without waiting, it is never read: a read would hold the server).
 */
function stateFileText(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP')
      throw new StateFileError(`the state file ${path} is a symbolic link: it must be a regular file`);
    throw new StateFileError(`cannot read the state file ${path}: ${(error as Error).message}`);
  }
  try {
    if (!fstatSync(fd).isFile())
      throw new StateFileError(`the state file ${path} is not a regular file (a FIFO, a directory or a device)`);
    return readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    throw new StateFileError(`cannot read the state file ${path}: ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** The state document in the file at `path`; undefined when there is no such file. Throws a {@link StateFileError}. */
function readStateFile(path: string): StateDocumentInput | undefined {
  const text = stateFileText(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as StateDocumentInput;
  } catch {
    // Not JSON.parse's message: it quotes the text around the fault, and the file holds secrets.
    throw new StateFileError(`the state file ${path} is not JSON: ${jsonSyntaxError(text)}`);
  }
}

/**
 * Throws a {@link StateFileError} when the state file at `path` could never be written: its
 * directory is not there (a mistyped path), is not a directory, or is not writable. Checked at the
 * start, so that a server does not run for hours keeping a state that no restart will find.
 */
export function checkStateDirectory(path: string): void {
  const directory = dirname(resolve(path));
  let isDirectory: boolean;
  try {
    isDirectory = statSync(directory).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new StateFileError(`the state file ${path} cannot be written: its directory ${directory} does not exist`);
    throw new StateFileError(`the state file ${path} cannot be written: ${(error as Error).message}`);
  }
  if (!isDirectory)
    throw new StateFileError(`the state file ${path} cannot be written: ${directory} is not a directory`);
  try {
    accessSync(directory, constants.W_OK);
  } catch {
    throw new StateFileError(`the state file ${path} cannot be written: its directory ${directory} is not writable`);
  }
}

/**
 * Removes the state file at `path` at once (synchronously: no request can make a namespace that
 * reads it meanwhile); answers whether there was one. Throws a {@link StateFileError} when it
 * cannot be removed.
 */
export function removeStateFile(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new StateFileError(`cannot remove the state file ${path}: ${(error as Error).message}`);
  }
}

/** What a temporary file of {@link writeAtomically} adds to the name it replaces: `.<pid>-<8 hex digits>.tmp`. */
const TEMPORARY_SUFFIX = /^\.(\d{1,10})-[0-9a-f]{8}\.tmp$/;

/** Whether process `pid` is running (this machine's). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files a writer of the state file at `path` left when its process was killed
 * mid-write (theirs is no longer running); answers how many. A file that cannot be removed is left.
 */
function removeLeftovers(path: string): number {
  const name = basename(path);
  let removed = 0;
  let entries: string[];
  try {
    entries = readdirSync(dirname(path));
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const match = entry.startsWith(name) ? TEMPORARY_SUFFIX.exec(entry.slice(name.length)) : null;
    if (!match || running(Number(match[1]))) continue;
    try {
      unlinkSync(join(dirname(path), entry));
      removed += 1;
    } catch {
      // Gone already, or not ours to remove: left as it is.
    }
  }
  return removed;
}

/**
 * The state document of `platform` as `snapshot()` gives it, as JSON on one line: taken from the
 * live document in one step, without the deep copy `snapshot()` makes (several times the cost of
 * the text: `bench/state-file.ts`). The state file holds it indented (the worker's part); two
 * states are the same file when they are the same line.
 */
function stateJson(platform: Platform): string {
  const internals = internalsOf(platform);
  if (!internals) return JSON.stringify(platform.snapshot());
  const { document } = internals.state;
  // The audience in force, as `snapshot()` says it.
  return JSON.stringify({ ...document, sso_audience: ssoAudienceOf(internals.settings, document) });
}

/**
 * {@link stateJson}, or why the state cannot be written: V8 makes no string over about 512 Mi
 * characters, and a state past that (retention caps raised far) is no JSON text at all.
 */
function copyOf(platform: Platform): string {
  try {
    return stateJson(platform);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new Error(
      `the state is too large to be written as one JSON text (${error.message}): lower the retention caps (the --max-* flags)`,
    );
  }
}

/** The text of the bytes the worker rendered, for file operations other than node:fs's (a test's). */
const utf8 = new TextDecoder();

/** The writers waiting for their turn to copy their state (resolved one per turn of the event loop). */
const waitingToCopy: (() => void)[] = [];

/** Lets the first writer waiting copy its state now, and the next one at the next turn of the event loop. */
function nextCopy(): void {
  waitingToCopy.shift()?.();
  if (waitingToCopy.length > 0) setImmediate(nextCopy);
}

/**
 * Resolves when it is this writer's turn to copy its state: one copy per turn of the event loop,
 * so that writes due together (namespaces changed by the same requests, the stop) do not hold the
 * loop for all their copies in a row; requests are served between them. Node's own `setImmediate`,
 * which a test's fake timers leave alone (the worker's answers come in real time anyway).
 */
function turnToCopy(): Promise<void> {
  return new Promise((resolve) => {
    waitingToCopy.push(resolve);
    if (waitingToCopy.length === 1) setImmediate(nextCopy);
  });
}

/** Options of {@link StateWriter}. */
export interface StateWriterOptions {
  /** Where a write that failed is told (it is tried again at the next change). */
  readonly warn: (message: string) => void;
  /** How long after a change the state is written, in ms. Default {@link STATE_WRITE_DELAY_MS}. */
  readonly delayMs?: number;
  /** The file operations. Default node:fs. */
  readonly fs?: StateFileSystem;
  /** The worker that makes the file's text. Default the process's ({@link stateRenderer}). */
  readonly renderer?: StateRenderer;
}

/**
 * The state file of one platform. {@link StateWriter.load} reads it into the platform; then every
 * {@link StateWriter.changed} schedules a write within the delay (the first change after a write
 * starts it, later ones join it), and {@link StateWriter.flush} writes at once. A write is skipped
 * when the state is what the file already holds; writes never overlap. Once
 * {@link StateWriter.close}d, it writes nothing more: the file may be another writer's, or gone.
 *
 * A write copies the state on the event loop, as JSON on one line, and compares it with the last
 * one written; the indented text is made by the renderer's worker, and written from its bytes. The
 * writer holds the renderer while a write is due or under way, so its worker ends once none is.
 */
export class StateWriter {
  readonly #platform: Platform;
  readonly #path: string;
  readonly #warn: (message: string) => void;
  readonly #delayMs: number;
  readonly #fs: StateFileSystem;
  readonly #renderer: StateRenderer;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The last write, done or under way; never rejects. */
  #writing: Promise<void> = Promise.resolve();
  /**
   * The write waiting for the one under way, that has not copied the state yet: a flush meanwhile
   * is this write, not one more behind it (it copies the state as it is when its turn comes).
   */
  #queued: Promise<void> | undefined;
  /** The state the file holds (as JSON on one line), as far as this writer knows. */
  #written: string | undefined;
  /** Closed: nothing more is written. */
  #closed = false;
  /** Why the last write failed; undefined once one succeeds. */
  #failure: Error | undefined;

  /**
   * @param platform - the platform whose state it keeps
   * @param path - the file
   * @param options - where failures are told, the delay, the file operations
   */
  constructor(platform: Platform, path: string, options: StateWriterOptions) {
    this.#platform = platform;
    this.#path = path;
    this.#warn = options.warn;
    this.#delayMs = options.delayMs ?? STATE_WRITE_DELAY_MS;
    this.#fs = options.fs ?? nodeFileSystem;
    this.#renderer = options.renderer ?? stateRenderer;
  }

  /** The file. */
  get path(): string {
    return this.#path;
  }

  /**
   * Loads the file into the platform when it exists (the seed that `reset` returns to stays); answers
   * whether it did. Throws a {@link StateFileError} when it is not JSON or not a state document.
   */
  load(): boolean {
    removeLeftovers(this.#path);
    const document = readStateFile(this.#path);
    if (document === undefined) return false;
    try {
      this.#platform.restore(document);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      throw new StateFileError(
        `the state file ${this.#path} is not a state document: ${error.field ?? 'document'}: ${error.message}`,
      );
    }
    this.#written = stateJson(this.#platform);
    return true;
  }

  /** The state may have changed: it is written within the delay (not once closed). */
  changed(): void {
    if (this.#closed || this.#timer !== undefined) return;
    this.#renderer.hold();
    this.#timer = setTimeout(() => void this.flush(), this.#delayMs);
    this.#timer.unref();
  }

  /**
   * Writes the state now (after the write under way, if any), unless the file holds it already or
   * the writer is closed. Flushes while a write is under way are one write after it, however many:
   * writes slower than the changes that ask for them (a large state) never queue up, and a stop
   * waits for two writes at most.
   */
  flush(): Promise<void> {
    if (this.#closed) {
      this.#cancelTimer();
      return this.#writing;
    }
    if (this.#queued !== undefined) {
      this.#cancelTimer();
      return this.#queued;
    }
    // Held for the write before the timer's hold goes: the worker stays for it.
    this.#renderer.hold();
    this.#cancelTimer();
    const queued: Promise<void> = this.#writing
      .then(() =>
        this.#write(() => {
          if (this.#queued === queued) this.#queued = undefined;
        }),
      )
      .then(() => this.#renderer.release());
    this.#queued = queued;
    this.#writing = queued;
    return queued;
  }

  /** The write due, if any, is not: its hold on the renderer goes (resolved once a worker that ended with it has). */
  #cancelTimer(): Promise<void> {
    if (this.#timer === undefined) return Promise.resolve();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    return this.#renderer.release();
  }

  /** Why the last write failed, while the file does not hold the state: undefined after a write that succeeded. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /**
   * Writes nothing more: a change meanwhile is not written, nor is any later one. Resolves once the
   * write under way, if any, is over: from then on the file is left alone.
   */
  close(): Promise<void> {
    this.#closed = true;
    const released = this.#cancelTimer();
    return Promise.all([this.#writing, released]).then(() => undefined);
  }

  /** One write; `copying` is told when it copies the state (from then on, a change needs a write of its own). */
  async #write(copying: () => void): Promise<void> {
    // Closed while this write waited for the one before: it is not made.
    if (this.#closed) {
      copying();
      return;
    }
    await turnToCopy();
    copying();
    try {
      const json = copyOf(this.#platform);
      if (json === this.#written) return;
      const bytes = await this.#renderer.render(json);
      if (this.#fs === nodeFileSystem) await writeAtomically(this.#path, bytes, nodeFileSystem);
      else await writeAtomically(this.#path, utf8.decode(bytes), this.#fs);
      this.#written = json;
      this.#failure = undefined;
    } catch (error) {
      this.#failure = error as Error;
      // Each failed write is one line, whatever the error says.
      const why = String((error as Error | undefined)?.message ?? error).replace(/[\r\n]+/g, ' ');
      this.#warn(`cannot write the state file ${this.#path} (tried again at the next change): ${why}`);
    }
  }
}
