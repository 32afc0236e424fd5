/**
 * A client in another language built from the OpenAPI document, against the standalone server:
 * test/openapi-client/perl/calls.pl, Perl's OpenAPI::Client (Debian's libopenapi-client-perl),
 * reads GET /openapi.json at run time and, through the methods it makes from the operationIds alone,
 * gets a server token, lists the packages, gets a ticket for anna, exchanges it for a user token and
 * reads the signed-in user, each answer checked against the document. It is given the server's URL
 * alone: the rest comes from GET /__admin/demo. Debian's JSON::Validator lacks the OpenAPI 3.1
 * meta-schema that OpenAPI::Client checks the document against, so calls.pl hands it the one `npm ci`
 * installs (see its header). Skipped with a message where Perl's OpenAPI::Client is missing, except
 * in CI, where it must run.
 */
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPlatform } from '../mock/index.js';
import { type RunningServer, startServer } from '../mock/node/index.js';
import { demoUsers } from '../mock/seeds/demo.js';

const script = fileURLToPath(new URL('./openapi-client/perl/calls.pl', import.meta.url));
const hasClient = spawnSync('perl', ['-MOpenAPI::Client', '-e1']).status === 0;
if (!hasClient && process.env.CI) {
  throw new Error("Perl's OpenAPI::Client is missing: .ci/run installs libopenapi-client-perl, and CI runs calls.pl");
}
if (!hasClient) console.warn("Perl's OpenAPI::Client is missing (libopenapi-client-perl): calls.pl is not run");

const platform = createPlatform();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ platform, port: 0 });
});
afterAll(() => server.close());

test.skipIf(!hasClient)(
  "Perl's OpenAPI::Client, from the document alone: a server token, the packages, a ticket, a user token and the signed-in user",
  async () => {
    const { stdout } = await promisify(execFile)('perl', [script], {
      env: { PATH: process.env.PATH ?? '', PLATFORM_URL: server.url },
      timeout: 60_000,
    });
    // The number of packages and the e-mail are the demo seed's: a changed seed fails here first.
    expect(stdout.trim().split('\n')).toEqual([
      'requestAccessToken none: 200 Bearer',
      'getProducts: 200 2 products',
      'generateTicket: 200',
      'requestAccessToken ticket: 200 Bearer',
      `getSignedInUser: 200 ${demoUsers.anna.email}`,
      'ok',
    ]);
    // OpenAPI::Client names itself so (JSON::Validator fetched the document as "Mojolicious (Perl)"). The
    // bearer token, a security scheme the client does not send by itself, is there where the document asks.
    const calls = platform.requests.list().filter((e) => e.headers['user-agent'] === 'Mojo-OpenAPI (Perl)');
    expect(calls.map((e) => [e.method, e.path, e.status, e.refusal, e.headers.authorization ?? null])).toEqual([
      ['POST', '/api/authorization/access_token', 200, null, null],
      ['GET', '/external/api/v1/products', 200, null, 'Bearer [redacted]'],
      ['POST', '/api/authorization/ticket', 200, null, 'Bearer [redacted]'],
      ['POST', '/api/authorization/access_token', 200, null, null],
      // OpenAPI::Client 1.07 builds the URL from the path's segments and drops the trailing slash of
      // /external/api/v1/me/; the platform answers a path with or without one alike (docs/assumptions.md).
      ['GET', '/external/api/v1/me', 200, null, 'Bearer [redacted]'],
    ]);
    expect(calls[1]?.query).toEqual({ product_type: 'packages' });
  },
  90_000,
);
