/**
 * `--state-file <path>` (`startServer({ stateFile })`): the state read at start when the file
 * exists, written back shortly after changes and on a clean stop, each write an atomic replace; a
 * namespace's state in a file of its own beside it. The write's timing on fake timers; a kill
 * between the write and the rename simulated by a rename that fails.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { documentWith } from '../../bench/documents.js';
import type { StateDocument } from '../../mock/index.js';
import { createPlatform, demoCredentials } from '../../mock/index.js';
import { jsonFault, jsonSyntaxError } from '../../mock/node/json-syntax.js';
import { startServer } from '../../mock/node/server.js';
import { nodeFileSystem, STATE_WRITE_DELAY_MS, type StateFileSystem, StateWriter } from '../../mock/node/state-file.js';
import { StateRenderer, stateRenderer } from '../../mock/node/state-worker.js';
import { WRITE } from '../fixtures.js';
import { paths } from '../paths.js';
import { until } from '../until.js';
import { collect, run, started, stop, stopAll } from './cli-process.js';

function freshDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'platform-state-'));
}

function readState(path: string): StateDocument {
  return JSON.parse(readFileSync(path, 'utf8')) as StateDocument;
}

/** The creditcard price of premium-digital in a state document. */
function premiumPrice(document: StateDocument): number | undefined {
  const premium = document.products.find((p) => p.product_code === 'premium-digital');
  return premium?.price_periods.find((p) => p.payment_option === 'creditcard')?.price;
}

/** Sets the creditcard price of premium-digital through the API at `base` (endpoint 1). */
async function setPremiumPrice(base: string, token: string, price: number): Promise<void> {
  const answer = await fetch(`${base}${paths.updatePrices}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      package_integration_code: 'PREMIUM-DIGITAL',
      price_periods: [
        { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price },
      ],
    }),
  });
  expect(answer.status, await answer.text()).toBe(200);
}

describe('a server with a state file', () => {
  test('a write, a stop, and a new server reads the state back; a namespace keeps its own file beside it', async () => {
    const path = join(freshDirectory(), 'state.json');
    const first = await startServer({ port: 0, stateFile: path });
    const seedPrice = premiumPrice(first.platform.snapshot());
    await setPremiumPrice(first.url, first.platform.mintToken({ scopes: [WRITE] }).access_token, 11);
    await fetch(`${first.url}/_ns/team-a/__admin/state`);
    const inA = first.namespace('team-a')?.mintToken({ scopes: [WRITE] }).access_token ?? '';
    await setPremiumPrice(`${first.url}/_ns/team-a`, inA, 22);
    await first.close();
    expect(premiumPrice(readState(path))).toBe(11);
    expect(premiumPrice(readState(`${path}.ns-team-a.json`))).toBe(22);

    const second = await startServer({ port: 0, stateFile: path });
    try {
      expect(premiumPrice(second.platform.snapshot())).toBe(11);
      const inSecond = await fetch(`${second.url}/_ns/team-a/__admin/state`).then(
        (r) => r.json() as Promise<StateDocument>,
      );
      expect(premiumPrice(inSecond)).toBe(22);
      // Reset goes back to the seed, not to the file.
      await fetch(`${second.url}/__admin/reset`, { method: 'POST' });
      expect(premiumPrice(second.platform.snapshot())).toBe(seedPrice);
    } finally {
      await second.close();
    }
    expect(premiumPrice(readState(path))).toBe(seedPrice);
  });

  test('an acknowledged write reaches the file while the server runs, without a stop', async () => {
    const path = join(freshDirectory(), 'state.json');
    const server = await startServer({ port: 0, stateFile: path });
    try {
      await setPremiumPrice(server.url, server.platform.mintToken({ scopes: [WRITE] }).access_token, 33);
      // Written within STATE_WRITE_DELAY_MS; the bound is far above it, for a busy machine.
      await vi.waitFor(() => expect(premiumPrice(readState(path))).toBe(33), {
        timeout: 20 * STATE_WRITE_DELAY_MS,
        interval: 50,
      });
    } finally {
      await server.close();
    }
  });

  test('no file yet: the seed; the file written is readable by its owner only, and nothing is left beside it', async () => {
    const directory = freshDirectory();
    const path = join(directory, 'state.json');
    const server = await startServer({ port: 0, stateFile: path });
    expect(server.platform.snapshot().clients.some((c) => c.client_id === demoCredentials.clientId)).toBe(true);
    await server.close();
    expect(readState(path).clients.some((c) => c.client_id === demoCredentials.clientId)).toBe(true);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o077).toBe(0);
    expect(readdirSync(directory)).toEqual(['state.json']);
  });

  test('a state file that is not a state document: the server does not start, naming the file and the field; the file stays', async () => {
    const path = join(freshDirectory(), 'state.json');
    const broken = JSON.stringify({ organisations: [{ id: 'not-an-id', name: 'x', price_model: 'simple' }] });
    writeFileSync(path, broken);
    await expect(startServer({ port: 0, stateFile: path })).rejects.toThrow(
      new RegExp(
        `state file ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a state document: organisations\\[0\\]\\.id`,
      ),
    );
    writeFileSync(`${path}.x`, '{');
    await expect(startServer({ port: 0, stateFile: `${path}.x` })).rejects.toThrow(/is not JSON/);
    expect(readFileSync(path, 'utf8')).toBe(broken);
  });

  test('a state file that is not JSON: the server does not start, the message says where and why, and quotes none of the file', async () => {
    const path = join(freshDirectory(), 'state.json');
    const broken = '{"clients":[{"client_id":"c","client_secret":TOPSECRETxyz}]}';
    writeFileSync(path, broken);
    const refusal = startServer({ port: 0, stateFile: path });
    await expect(refusal).rejects.toThrow(
      `the state file ${path} is not JSON: line 1, column 46: a value was expected here`,
    );
    await expect(refusal).rejects.not.toThrow(/TOPSECRET|client_secret|"c"/);
    // Over several lines: the line and the column of the fault.
    writeFileSync(`${path}.x`, '{\n  "clients": [\n    { "client_secret": "TOPSECRET5\n" }\n  ]\n}\n');
    await expect(startServer({ port: 0, stateFile: `${path}.x` })).rejects.toThrow(
      /^the state file \S+ is not JSON: line 3, column 35: a control character \(a line break, a tab\.\.\.\) inside a string, unescaped$/,
    );
    await expect(startServer({ port: 0, stateFile: `${path}.x` })).rejects.not.toThrow(/TOPSECRET/);
    expect(readFileSync(path, 'utf8')).toBe(broken);
  });

  test('a namespace whose state file is broken is refused (500 state_file_invalid), and its file left as it is', async () => {
    const path = join(freshDirectory(), 'state.json');
    const broken = '{ broken: "TOPSECRET7" }';
    writeFileSync(`${path}.ns-b.json`, broken);
    const warnings: string[] = [];
    const server = await startServer({ port: 0, stateFile: path, warn: (m) => warnings.push(m) });
    try {
      const answer = await fetch(`${server.url}/_ns/b/__admin/state`);
      expect(answer.status).toBe(500);
      const body = await answer.text();
      expect(JSON.parse(body)).toMatchObject({ code: 'state_file_invalid', field: 'namespace' });
      expect(server.namespace('b')).toBeUndefined();
      expect(warnings.join('\n')).toContain(
        `${path}.ns-b.json is not JSON: line 1, column 3: a property name in double quotes was expected here`,
      );
      expect(`${warnings.join('\n')}${body}`).not.toMatch(/TOPSECRET|broken/);
    } finally {
      await server.close();
    }
    expect(readFileSync(`${path}.ns-b.json`, 'utf8')).toBe(broken);
  });
});

describe('where a state file is not JSON', () => {
  /** Whether JSON.parse takes the text. */
  const parses = (text: string) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  };

  test('a fault is found exactly where JSON.parse refuses: JSON, JSON with a character changed, dropped or added, any text', () => {
    const edited = fc
      .tuple(
        fc.json(),
        fc.nat(),
        fc.constantFrom('drop', 'change', 'add'),
        fc.constantFrom(...'{}[]:,"\\ \n0-.eE+tfnu\u0001x'),
      )
      .map(([json, at, edit, c]) => {
        const i = json.length === 0 ? 0 : at % json.length;
        if (edit === 'drop') return json.slice(0, i) + json.slice(i + 1);
        if (edit === 'change') return json.slice(0, i) + c + json.slice(i + 1);
        return json.slice(0, i) + c + json.slice(i);
      });
    fc.assert(
      fc.property(fc.oneof(fc.json(), edited, fc.string()), (text) => {
        const fault = jsonFault(text);
        expect(fault === undefined).toBe(parses(text));
        if (fault) expect(fault.at).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 2000 },
    );
  });

  test('nested a million deep, it still answers', () => {
    expect(jsonSyntaxError('['.repeat(1_000_000))).toBe('line 1, column 1000001: the text ends before the JSON does');
  });
});

describe('only a regular file is a state file', () => {
  test.each([
    ['a FIFO', (path: string) => execFileSync('mkfifo', [path]), 'is not a regular file'],
    ['a symbolic link', (path: string) => symlinkSync(join(tmpdir(), 'elsewhere.json'), path), 'is a symbolic link'],
    ['a directory', (path: string) => mkdirSync(path), 'is not a regular file'],
  ])(
    '%s as the state file: the server does not start (it neither waits nor follows), naming the file',
    async (_, make, why) => {
      const path = join(freshDirectory(), 'state.json');
      make(path);
      await expect(startServer({ port: 0, stateFile: path })).rejects.toThrow(`the state file ${path} ${why}`);
    },
  );

  test('a state file in a directory that is not there, or under a file: the server does not start (the CLI: one line, exit 1), rather than run keeping nothing', async () => {
    const directory = freshDirectory();
    const missing = join(directory, 'typo', 'state.json');
    await expect(startServer({ port: 0, stateFile: missing })).rejects.toThrow(
      `the state file ${missing} cannot be written: its directory ${join(directory, 'typo')} does not exist`,
    );
    writeFileSync(join(directory, 'file'), '');
    const under = join(directory, 'file', 'state.json');
    await expect(startServer({ port: 0, stateFile: under })).rejects.toThrow(
      `the state file ${under} cannot be written: ${join(directory, 'file')} is not a directory`,
    );
    const { code, stdout, stderr } = await collect(run(['--port', '0', '--state-file', missing]));
    expect([code, stdout]).toEqual([1, '']);
    expect(stderr).toBe(
      `platform-mock: the state file ${missing} cannot be written: its directory ${join(directory, 'typo')} does not exist\n`,
    );
    expect(readdirSync(directory)).toEqual(['file']);
  });

  test("a FIFO as a namespace's state file: that namespace is refused (500 state_file_invalid) at once; the root and other namespaces answer", async () => {
    const path = join(freshDirectory(), 'state.json');
    execFileSync('mkfifo', [`${path}.ns-b.json`]);
    const warnings: string[] = [];
    const server = await startServer({ port: 0, stateFile: path, warn: (m) => warnings.push(m) });
    try {
      const answer = await fetch(`${server.url}/_ns/b/__admin/state`);
      expect(answer.status).toBe(500);
      expect(await answer.json()).toMatchObject({ code: 'state_file_invalid', field: 'namespace' });
      expect(warnings.join('\n')).toContain(`${path}.ns-b.json is not a regular file`);
      expect((await fetch(`${server.url}/_ns/c/__admin/state`)).status).toBe(200);
      expect((await fetch(`${server.url}/__admin/state`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  test('the temporary files a killed writer left beside the state file are removed at start; a running writer keeps its own', async () => {
    const path = join(freshDirectory(), 'state.json');
    // A process id that is not running: the highest a pid can be on Linux, and beyond.
    const dead = `${path}.4194305-0123abcd.tmp`;
    const mine = `${path}.${process.pid}-0123abcd.tmp`;
    const other = `${path}x.4194305-0123abcd.tmp`;
    for (const file of [dead, mine, other]) writeFileSync(file, '{"half": ');
    const server = await startServer({ port: 0, stateFile: path });
    await server.close();
    const left = readdirSync(join(path, '..')).sort();
    expect(left).toEqual(['state.json', `state.json.${process.pid}-0123abcd.tmp`, 'state.jsonx.4194305-0123abcd.tmp']);
  });

  test('a stop whose last write fails rejects, naming the file (the CLI exits 1)', async () => {
    const directory = freshDirectory();
    const path = join(directory, 'state.json');
    const warnings: string[] = [];
    const server = await startServer({ port: 0, stateFile: path, warn: (m) => warnings.push(m) });
    await setPremiumPrice(server.url, server.platform.mintToken({ scopes: [WRITE] }).access_token, 33);
    rmSync(directory, { recursive: true });
    await expect(server.close()).rejects.toThrow(`the last state was not written to ${path}`);
    expect(warnings.join('\n')).toContain(`cannot write the state file ${path}`);
  });
});

/** File operations that record each write and can fail the rename, as a kill between them would leave things. */
function recordingFileSystem(): StateFileSystem & { writes: string[]; failRename: boolean } {
  const fs = {
    writes: [] as string[],
    failRename: false,
    async writeDurably(path: string, text: string) {
      fs.writes.push(text);
      await nodeFileSystem.writeDurably(path, text);
    },
    async rename(from: string, to: string) {
      if (fs.failRename) throw new Error('killed between the write and the rename');
      await nodeFileSystem.rename(from, to);
    },
    unlink: nodeFileSystem.unlink,
    syncDirectory: nodeFileSystem.syncDirectory,
  };
  return fs;
}

describe('the state writer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test(`changes are written once, ${STATE_WRITE_DELAY_MS} ms after the first of them (debounced); an unchanged state is not written`, async () => {
    vi.useFakeTimers();
    const platform = createPlatform();
    // In memory: every step of a write is a promise that fake time moves on.
    const files = new Map<string, string>();
    const renamed: string[] = [];
    const fs: StateFileSystem = {
      writeDurably: async (path, text) => void files.set(path, text),
      rename: async (from, to) => {
        files.set(to, files.get(from) ?? '');
        files.delete(from);
        renamed.push(to);
      },
      unlink: async (path) => void files.delete(path),
      syncDirectory: async () => {},
    };
    const writer = new StateWriter(platform, 'state.json', { warn: () => {}, fs });
    platform.mintToken({ scopes: [WRITE] });
    writer.changed();
    await vi.advanceTimersByTimeAsync(STATE_WRITE_DELAY_MS / 2);
    platform.mintToken({ scopes: [WRITE] });
    writer.changed();
    await vi.advanceTimersByTimeAsync(STATE_WRITE_DELAY_MS / 2 - 1);
    expect(renamed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    // The text is made by a worker thread: its answer comes in real time, which fake time does not move.
    await until(() => expect(renamed).toEqual(['state.json']));
    expect(JSON.parse(files.get('state.json') ?? '')).toEqual(platform.snapshot());
    // Nothing changed since: another signal writes nothing (the flush waits for the write it started).
    writer.changed();
    await vi.advanceTimersByTimeAsync(STATE_WRITE_DELAY_MS);
    await writer.flush();
    expect(renamed).toEqual(['state.json']);
    platform.mintToken({ scopes: [WRITE] });
    writer.changed();
    await vi.advanceTimersByTimeAsync(STATE_WRITE_DELAY_MS);
    await until(() => expect(renamed).toEqual(['state.json', 'state.json']));
    expect([...files.keys()]).toEqual(['state.json']);
  });

  test('flushes asked for while a write is under way are one write after it, however many; each failed write is one line of warning', async () => {
    const platform = createPlatform();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let attempts = 0;
    // A disk that takes its time, then fails every write, with a message of two lines.
    const fs: StateFileSystem = {
      writeDurably: async () => {
        attempts++;
        await gate;
        throw new Error('no space left\non the device');
      },
      rename: async () => {},
      unlink: async () => {},
      syncDirectory: async () => {},
    };
    const warnings: string[] = [];
    const writer = new StateWriter(platform, 'state.json', { warn: (m) => warnings.push(m), fs });
    platform.mintToken({ scopes: [WRITE] });
    const first = writer.flush();
    await until(() => expect(attempts).toBe(1));
    // A change every so often while the write is under way, each asking for a write.
    const flushes: Promise<void>[] = [];
    for (let i = 0; i < 10; i++) {
      platform.mintToken({ scopes: [WRITE] });
      flushes.push(writer.flush());
    }
    flushes.push(writer.flush().then(() => writer.close()));
    release();
    // A stop's flush among them: it waits for these two writes, not for one per change.
    await Promise.all([first, ...flushes]);
    expect(attempts).toBe(2);
    expect(warnings).toEqual([
      'cannot write the state file state.json (tried again at the next change): no space left on the device',
      'cannot write the state file state.json (tried again at the next change): no space left on the device',
    ]);
    expect(writer.failure?.message).toBe('no space left\non the device');
  });

  test('a state too large to be one JSON text (over what a string holds): each write says so, in one line, and the file is left', async () => {
    const platform = createPlatform();
    // As V8 answers a JSON.stringify past its longest string (the live state of a platform whose caps were raised far).
    const tooLarge = {
      ...platform,
      snapshot: () => {
        throw new RangeError('Invalid string length');
      },
    };
    const warnings: string[] = [];
    const writer = new StateWriter(tooLarge, 'state.json', {
      warn: (m) => warnings.push(m),
      fs: recordingFileSystem(),
    });
    await writer.flush();
    await writer.flush();
    expect(warnings).toEqual([
      'cannot write the state file state.json (tried again at the next change): the state is too large to be written as one JSON text (Invalid string length): lower the retention caps (the --max-* flags)',
      'cannot write the state file state.json (tried again at the next change): the state is too large to be written as one JSON text (Invalid string length): lower the retention caps (the --max-* flags)',
    ]);
  });

  test('a kill between the write and the rename leaves the old state whole; the next change writes the new one', async () => {
    const directory = freshDirectory();
    const path = join(directory, 'state.json');
    const platform = createPlatform();
    const fs = recordingFileSystem();
    const warnings: string[] = [];
    const writer = new StateWriter(platform, path, { warn: (m) => warnings.push(m), fs });
    await writer.flush();
    const old = readFileSync(path, 'utf8');
    platform.mintToken({ scopes: [WRITE] });
    fs.failRename = true;
    await writer.flush();
    expect(readFileSync(path, 'utf8')).toBe(old);
    expect(() => JSON.parse(old)).not.toThrow();
    expect(warnings).toEqual([expect.stringMatching(/cannot write the state file .*killed between/)]);
    // The new state was written out in full before the rename that did not happen, then removed.
    expect(fs.writes.at(-1)).toBe(`${JSON.stringify(platform.snapshot(), null, 2)}\n`);
    expect(readdirSync(directory)).toEqual(['state.json']);
    fs.failRename = false;
    await writer.flush();
    expect(readState(path).access_tokens).toEqual(platform.snapshot().access_tokens);
  });
});

/**
 * Records each `JSON.stringify` of a state document (the writer's copy of the state) made on this
 * thread, calling `then` after it; `vi.restoreAllMocks()` ends it.
 */
function spyOnCopies(then: () => void = () => {}): unknown[] {
  const copies: unknown[] = [];
  const stringify = JSON.stringify;
  vi.spyOn(JSON, 'stringify').mockImplementation((value, replacer, space) => {
    const text = stringify(value, replacer, space);
    if (typeof value === 'object' && value !== null && 'products' in value) {
      copies.push(value);
      then();
    }
    return text;
  });
  return copies;
}

/** A state document's text as a state file holds it. */
function fileText(document: StateDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

describe('state files are written without holding the event loop', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test('a large state: the event loop turns between the copy of the state and its write, and the file is the indented state document', async () => {
    const platform = createPlatform();
    platform.restore(documentWith(2000));
    const path = join(freshDirectory(), 'state.json');
    let written = 0;
    const writer = new StateWriter(platform, path, {
      warn: () => {},
      fs: {
        ...nodeFileSystem,
        async writeDurably(p, text) {
          written += 1;
          await nodeFileSystem.writeDurably(p, text);
        },
      },
    });
    const copies = spyOnCopies();
    // Turns of the event loop (its check phase) after the state was copied, before its text reaches the file system.
    let turns = 0;
    const turn = () => {
      if (written > 0) return;
      if (copies.length > 0) turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    await writer.flush();
    vi.restoreAllMocks();
    expect(copies).toHaveLength(1);
    // Made on the event loop, the text would reach the file system before the loop turned once.
    expect(turns).toBeGreaterThan(0);
    expect(written).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe(fileText(platform.snapshot()));
  });

  test('writes due together copy their states one per turn of the event loop, not all in a row', async () => {
    const directory = freshDirectory();
    const writers = [1, 2, 3].map((i) => {
      const platform = createPlatform();
      platform.restore(documentWith(300));
      return new StateWriter(platform, join(directory, `state-${i}.json`), { warn: () => {} });
    });
    const events: string[] = [];
    let done = false;
    const turn = () => {
      if (done) return;
      events.push('turn');
      setImmediate(turn);
    };
    setImmediate(turn);
    const copies = spyOnCopies(() => events.push('copy'));
    await Promise.all(writers.map((w) => w.flush()));
    done = true;
    vi.restoreAllMocks();
    expect(copies).toHaveLength(3);
    const between = events.slice(events.indexOf('copy'), events.lastIndexOf('copy') + 1).join(' ');
    expect(between).toMatch(/^copy( turn)+ copy( turn)+ copy$/);
  });

  test('neither the deep copy (snapshot) nor the indented text is made on the event loop; the file has the audience in force, as the snapshot says it', async () => {
    const platform = createPlatform({ ssoAudience: 'https://sso.example.test/audience' });
    platform.restore(documentWith(200));
    const path = join(freshDirectory(), 'state.json');
    const writer = new StateWriter(platform, path, { warn: () => {} });
    const snapshot = vi.spyOn(platform, 'snapshot');
    const stringify = vi.spyOn(JSON, 'stringify');
    await writer.flush();
    const indented = stringify.mock.calls.filter(
      ([value, , space]) => space !== undefined && typeof value === 'object' && value !== null && 'products' in value,
    );
    const snapshots = snapshot.mock.calls.length;
    vi.restoreAllMocks();
    expect({ snapshots, indented: indented.length }).toEqual({ snapshots: 0, indented: 0 });
    const expected = platform.snapshot();
    expect(expected.sso_audience).toBe('https://sso.example.test/audience');
    expect(readFileSync(path, 'utf8')).toBe(fileText(expected));
  });

  test('a writer holds the worker while a write of its is due or under way; it is started for a write and ended once none is due', async () => {
    const renderer = new StateRenderer();
    const platform = createPlatform();
    const path = join(freshDirectory(), 'state.json');
    const writes: string[] = [];
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const writer = new StateWriter(platform, path, {
      warn: () => {},
      delayMs: 20,
      renderer,
      fs: {
        ...nodeFileSystem,
        async writeDurably(p, text) {
          writes.push(text);
          await gate;
          await nodeFileSystem.writeDurably(p, text);
        },
      },
    });
    platform.mintToken({ scopes: [WRITE] });
    writer.changed();
    // Due, not yet written: no worker is started for a write that may be skipped.
    expect(renderer.running).toBe(false);
    const flushing = writer.flush();
    await until(() => expect(writes).toHaveLength(1));
    expect(renderer.running).toBe(true);
    // Another change while the write is held: the worker stays for the write that is due.
    platform.mintToken({ scopes: [WRITE] });
    writer.changed();
    open();
    await flushing;
    expect(renderer.running).toBe(true);
    await until(() => expect(writes).toHaveLength(2));
    await until(() => expect(renderer.running).toBe(false));
    expect(readState(path).access_tokens).toEqual(platform.snapshot().access_tokens);
    // An unchanged state is not written, and starts no worker.
    writer.changed();
    await writer.flush();
    expect({ writes: writes.length, running: renderer.running }).toEqual({ writes: 2, running: false });
    await writer.close();
    expect(renderer.running).toBe(false);
  });

  test('a worker that stops before it answers fails that write (warned, its failure kept, the file as it was): nothing waits for it forever', async () => {
    const renderer = new StateRenderer(
      "require('node:worker_threads').parentPort.on('message', () => process.exit(3));",
    );
    const platform = createPlatform();
    const path = join(freshDirectory(), 'state.json');
    writeFileSync(path, fileText(platform.snapshot()));
    const old = readFileSync(path, 'utf8');
    const warnings: string[] = [];
    const writer = new StateWriter(platform, path, { warn: (m) => warnings.push(m), renderer });
    writer.load();
    platform.mintToken({ scopes: [WRITE] });
    await writer.flush();
    expect(writer.failure?.message).toMatch(/the state file worker stopped \(exit code 3\)/);
    expect(warnings).toEqual([expect.stringContaining(`cannot write the state file ${path}`)]);
    expect(readFileSync(path, 'utf8')).toBe(old);
    expect(renderer.running).toBe(false);
    await writer.close();
  });

  test("a server's state files are made by the process's worker, which has ended once the server is closed", async () => {
    const path = join(freshDirectory(), 'state.json');
    const render = vi.spyOn(stateRenderer, 'render');
    const server = await startServer({ port: 0, stateFile: path });
    await setPremiumPrice(server.url, server.platform.mintToken({ scopes: [WRITE] }).access_token, 55);
    await fetch(`${server.url}/_ns/team-b/__admin/state`);
    const inB = server.namespace('team-b')?.mintToken({ scopes: [WRITE] }).access_token ?? '';
    await setPremiumPrice(`${server.url}/_ns/team-b`, inB, 66);
    await server.close();
    expect(render).toHaveBeenCalled();
    expect(stateRenderer.running).toBe(false);
    expect(premiumPrice(readState(path))).toBe(55);
    expect(premiumPrice(readState(`${path}.ns-team-b.json`))).toBe(66);
  });
});

describe('platform-mock --state-file', () => {
  afterEach(stopAll);

  test('a write, then Ctrl-C (SIGINT): exit 0 and the state in the file; the start-up lines name it', async () => {
    const path = join(freshDirectory(), 'state.json');
    const child = run(['--port', '0', '--quiet', '--state-file', path]);
    try {
      const { url, output } = await started(child);
      expect(output).toContain(`state file:         ${path}`);
      expect(output).toContain(`namespaces:         ${url}/_ns/{name}/`);
      const minted = await fetch(`${url}/__admin/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scopes: [WRITE] }),
      });
      const { access_token } = (await minted.json()) as { access_token: string };
      await setPremiumPrice(url, access_token, 44);
      expect(await stop(child, 'SIGINT')).toBe(0);
      expect(premiumPrice(readState(path))).toBe(44);
    } finally {
      await stop(child);
    }
  });
});
