/**
 * `msw` is an optional peer dependency. Without it, `subscription-platform-sdk/mock` fails with a
 * message that says to install it and names `subscription-platform-sdk/mock/node`, which works
 * without it. Run in a node process of its own where a resolve hook makes `msw` unresolvable, as
 * in a project that never installed it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { HIDE_MSW_ESM_URL } from '../hide-msw.js';

/**
 * How long a test that starts node with tsx may take: a few seconds on an idle machine, and the
 * bound holds at ten times that.
 */
const PROCESS_MS = 60_000;

/** Runs `source` (an ES module) in node with tsx and without msw; answers what it printed as JSON. */
async function withoutMsw(source: string): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', HIDE_MSW_ESM_URL, '--input-type=module', '--eval', source],
    { cwd: new URL('../../', import.meta.url), timeout: PROCESS_MS - 5_000 },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

test('without msw, /mock fails with a message that says to install it and names /mock/node', {
  timeout: PROCESS_MS,
}, async () => {
  const out = await withoutMsw(`
    const outcome = (p) => p.then(() => ({ ok: true }), (e) => ({ ok: false, code: e.code, message: e.message }));
    const msw = await outcome(import('msw'));
    const mock = await outcome(import('./mock/index.ts'));
    console.log(JSON.stringify({ msw, mock }));
  `);
  // msw is really out of reach in that process.
  expect(out.msw).toMatchObject({ ok: false, code: 'ERR_MODULE_NOT_FOUND' });
  expect(out.mock).toMatchObject({ ok: false });
  const { message } = out.mock as { message: string };
  expect(message).toContain('npm i -D msw');
  expect(message).toContain('subscription-platform-sdk/mock/node');
  expect(message).toContain('startServer');
  expect(message).not.toMatch(/^Cannot find package/);
});

test('without msw, /mock/node starts the platform and serves it', { timeout: PROCESS_MS }, async () => {
  const out = await withoutMsw(`
    const { startServer } = await import('./mock/node/index.ts');
    const server = await startServer({ port: 0 });
    const answer = await fetch(server.url + '/openapi.json');
    await server.close();
    console.log(JSON.stringify({ status: answer.status }));
  `);
  expect(out).toEqual({ status: 200 });
});
