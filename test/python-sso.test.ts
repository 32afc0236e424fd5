/**
 * examples/python/sso.py, the SSO service from Python's standard library alone, run against the
 * standalone server: it signs, calls and verifies createsession, authenticate, sessionstatus and
 * logout. Skipped with a message where python3 is missing, except in CI, where it must run.
 */
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPlatform } from '../mock/index.js';
import { type RunningServer, startServer } from '../mock/node/index.js';
import { demoSite, demoUsers } from '../mock/seeds/demo.js';

const script = fileURLToPath(new URL('../examples/python/sso.py', import.meta.url));
const hasPython = spawnSync('python3', ['--version']).status === 0;
if (!hasPython && process.env.CI) throw new Error('python3 is missing: CI runs examples/python/sso.py');
if (!hasPython) console.warn('python3 is missing: examples/python/sso.py is not run');

const platform = createPlatform();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ platform, port: 0 });
});
afterAll(() => server.close());

test.skipIf(!hasPython)(
  'examples/python/sso.py: createsession, authenticate, sessionstatus and logout, each answer verified',
  async () => {
    const { stdout } = await promisify(execFile)('python3', [script], {
      // Its defaults are the demo seed's: the test names them, so a changed seed fails here first.
      env: {
        PATH: process.env.PATH ?? '',
        PLATFORM_URL: server.url,
        SSO_CLIENT_ID: demoSite.clientId,
        SSO_CLIENT_SECRET: demoSite.clientSecret,
        SSO_ORGANISATION_ID: demoSite.organisationId,
        SSO_AUDIENCE: demoSite.ssoAudience,
        SSO_USER: demoUsers.anna.email,
        SSO_PASSWORD: demoUsers.anna.password,
      },
      timeout: 60_000,
    });
    expect(stdout.trim().split('\n')).toEqual([
      'createsession: sts=anon err=None',
      'authenticate: sts=loggedin err=None',
      'sessionstatus: sts=loggedin err=None',
      'logout: sts=terminated err=None',
      'sessionstatus after logout: sts=terminated err=None',
      'ok',
    ]);
    const sso = platform.requests.list().filter((e) => e.headers['user-agent']?.startsWith('Python-urllib'));
    expect(sso.map((e) => [e.path, e.status, e.refusal])).toEqual([
      ['/createsession', 200, null],
      ['/authenticate', 200, null],
      ['/sessionstatus', 200, null],
      ['/logout', 200, null],
      ['/sessionstatus', 200, null],
    ]);
  },
  90_000,
);
