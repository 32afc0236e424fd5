import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { createPlatform } from '../mock/index.js';
import { startServer } from '../mock/node/index.js';
import { demoSite, demoUsers } from '../mock/seeds/demo.js';
import { available, runAgainst, standaloneServer } from './other-languages.js';

const script = fileURLToPath(new URL('../examples/python/sso.py', import.meta.url));
const hasPython = available('python3', ['--version'], 'python3', 'python3');

const platform = createPlatform();
const server = standaloneServer(platform);

test.skipIf(!hasPython)(
  'examples/python/sso.py: createsession, authenticate, sessionstatus and logout, each answer verified',
  async () => {
    // Its defaults are the demo seed's: the test names them, so a changed seed fails here first.
    const { stdout } = await runAgainst(server.url, 'python3', [script], {
      SSO_CLIENT_ID: demoSite.clientId,
      SSO_CLIENT_SECRET: demoSite.clientSecret,
      SSO_ORGANISATION_ID: demoSite.organisationId,
      SSO_AUDIENCE: demoSite.ssoAudience,
      SSO_USER: demoUsers.anna.email,
      SSO_PASSWORD: demoUsers.anna.password,
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

test.skipIf(!hasPython)(
  'examples/python/sso.py without a platform at its URL: one line that says so and how to start it, exit 1, no traceback',
  async () => {
    const closed = await startServer({ port: 0, seed: 'empty' });
    const url = closed.url;
    await closed.close();
    const failed = await runAgainst(url, 'python3', [script]).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    // One line, the reason as the system words it (ECONNREFUSED's text differs between systems).
    expect(failed?.stderr).toMatch(
      new RegExp(
        `^no platform at ${url} \\([^\\n]*\\): start it with \`npx -p subscription-platform-sdk platform-mock --port 4010\` \\(from a clone of the repository: \`npm run platform-mock -- --port 4010\`\\)\n$`,
      ),
    );
  },
  90_000,
);
