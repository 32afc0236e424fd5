/**
 * The any-language shell examples of the README's quick start and of `docs/other-languages.md`, run
 * as written against the standalone server: the client-credentials grant with curl, an SSO
 * createsession signed with openssl, and the admin API's test tools with curl and jq. Skipped with a
 * message where curl, jq or openssl is missing.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { createPlatform } from '../mock/index.js';
import { type RunningServer, startServer } from '../mock/node/index.js';
import { demoSite } from '../mock/seeds/demo.js';

/** The `sh` block of `file` that contains `marker`. */
function block(file: string, marker: string): string {
  const markdown = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
  const found = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes(marker));
  if (!found) throw new Error(`${file} has no sh block with ${marker}`);
  return found;
}

const tools = ['curl', 'jq', 'openssl'].filter((t) => spawnSync(t, ['--version']).error !== undefined);
if (tools.length) console.warn(`${tools.join(', ')} missing: the docs' shell examples are not run`);

const platform = createPlatform();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ platform, port: 0 });
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
});

/** Runs a docs block with bash against this server, as if it listened on port 4010. */
async function run(script: string): Promise<string> {
  const here = script.replaceAll('localhost:4010', new URL(server.url).host);
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', here], { timeout: 60_000 });
  return stdout;
}

test.skipIf(tools.length > 0)(
  "README and other-languages: the client-credentials grant with curl (grant_type=none) gets a token the products' endpoint takes",
  async () => {
    for (const file of ['README.md', 'docs/other-languages.md']) {
      platform.requests.clear();
      const answer = JSON.parse(await run(block(file, 'grant_type=none'))) as { items: unknown[] };
      expect(answer.items.length, file).toBeGreaterThan(0);
      const grant = platform.requests.list().find((e) => e.path === '/api/authorization/access_token');
      expect(grant, file).toMatchObject({ status: 200, refusal: null });
    }
  },
  90_000,
);

test.skipIf(tools.length > 0)(
  'other-languages: an SSO createsession signed with openssl is answered with a session token for the client',
  async () => {
    const script = block('docs/other-languages.md', '/createsession');
    expect(script).toContain(demoSite.clientSecret);
    const answer = JSON.parse((await run(script)).trim()) as { t: string };
    const { payload } = await jwtVerify(answer.t, new TextEncoder().encode(demoSite.clientSecret), {
      issuer: demoSite.ssoAudience,
      audience: demoSite.clientId,
      clockTolerance: 120,
    });
    expect(payload).toMatchObject({ sts: 'anon', err: null, sid: expect.any(String) });
    const call = platform.requests.list().find((e) => e.path === '/createsession');
    expect(call).toMatchObject({ status: 200, refusal: null });
  },
  90_000,
);

test("README, other-languages and the Python examples start platform-mock with npx naming the package: without a project, `npx platform-mock` would look for a registry package of that name, not this one's command", () => {
  const starts = [
    ...block('README.md', 'curl -s localhost:4010/__admin/demo').split('\n'),
    ...block('docs/other-languages.md', 'no project needed').split('\n'),
  ].filter((line) => line.includes('no project') || line.includes('demo data included'));
  expect(starts).toHaveLength(2);
  for (const line of starts) expect(line).toMatch(/^npx -p subscription-platform-sdk platform-mock --port 4010/);
  for (const example of ['sso.py', 'parallel_workers.py', 'test_platform.py']) {
    const text = readFileSync(new URL(`../examples/python/${example}`, import.meta.url), 'utf8');
    expect(text, example).toContain('`npx -p subscription-platform-sdk platform-mock --port 4010`');
    expect(text, example).not.toMatch(/`npx platform-mock/);
  }
});

test.skipIf(tools.length > 0)(
  "other-languages: the admin API from the shell (a reset, a token, a fault, the journal, the clock) prints what the page's text block says",
  async () => {
    const markdown = readFileSync(new URL('../docs/other-languages.md', import.meta.url), 'utf8');
    const found = [...markdown.matchAll(/```sh\n((?:(?!```)[\s\S])*)```\n\n```text\n((?:(?!```)[\s\S])*)```/g)].find(
      (m) => m[1]!.includes('/__admin/faults'),
    );
    if (!found) throw new Error('docs/other-languages.md has no sh block with /__admin/faults and its output');
    platform.clock.set(new Date('2030-01-01T00:00:00Z'));
    // The platform (in this process) reads the real time through Date.now: held still from here on,
    // so that the hour the script adds to it shows exactly, however long the script takes.
    vi.useFakeTimers({ toFake: ['Date'] });
    const printed = (await run(found[1]!)).trim().split('\n');
    const stated = found[2]!.trim().split('\n');
    expect(printed.slice(0, -1)).toEqual(stated.slice(0, -1));
    // The clock, reset to the real time, then an hour ahead of it.
    expect(stated.at(-1)).toBe('{"now":"<an hour from now>","frozen":false}');
    const { now, frozen } = JSON.parse(printed.at(-1)!) as { now: string; frozen: boolean };
    expect(frozen).toBe(false);
    expect(now).toBe(new Date(Date.now() + 3_600_000).toISOString());
  },
  90_000,
);
