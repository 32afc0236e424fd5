import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { createPlatform } from '../mock/index.js';
import { demoUsers } from '../mock/seeds/demo.js';
import { available, runAgainst, standaloneServer } from './other-languages.js';

const script = fileURLToPath(new URL('./openapi-client/perl/calls.pl', import.meta.url));
const hasClient = available('perl', ['-MOpenAPI::Client', '-e1'], "Perl's OpenAPI::Client", 'libopenapi-client-perl');

const platform = createPlatform();
const server = standaloneServer(platform);

test.skipIf(!hasClient)(
  "Perl's OpenAPI::Client, from the document alone: a server token, the packages, a ticket, a user token and the signed-in user",
  async () => {
    const { stdout } = await runAgainst(server.url, 'perl', [script]);
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
