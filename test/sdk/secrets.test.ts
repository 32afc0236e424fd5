/**
 * Spec, Authentication 7: tickets are credentials, never logged. A whole sign-on run at debug level,
 * with every ticket, token, secret and password that crossed the wire collected by a recording
 * fetch: none of them is in any log line or error message. And an auth host that quotes the request
 * back in its error answer: the error quotes none of the request's secrets.
 */
import { inspect } from 'node:util';
import { decodeJwt } from 'jose';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  type PlatformClient,
} from '../../src/index.js';
import { paths } from '../paths.js';
import { browser, hrefOf } from './browser.js';
import {
  client,
  defaultHosts,
  demoIds,
  demoShop,
  demoSite,
  demoUsers,
  platform,
  recordingLogger,
  server,
  siteClient,
  usePlatform,
} from './helpers.js';

usePlatform();

const SECRET_KEYS = new Set(['ticket', 'at', 't', 'access_token', 'refresh_token', 'client_secret', 'password']);

/** Collects every secret value in a JSON or form body, and inside JWTs (`t`) their claims. */
function collect(text: string, into: Set<string>): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = Object.fromEntries(new URLSearchParams(text));
  }
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    for (const [key, inner] of Object.entries(v)) {
      if (SECRET_KEYS.has(key) && typeof inner === 'string' && inner.length >= 8) {
        into.add(inner);
        if (key === 't') walk(decodeJwt(inner));
      } else walk(inner);
    }
  };
  walk(value);
}

/** A fetch that records every secret sent or received: bodies, bearer tokens, query `at`/`ticket`. */
function recordingFetch(secrets: Set<string>): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    for (const name of ['at', 'ticket']) {
      const v = url.searchParams.get(name);
      if (v) secrets.add(v);
    }
    const bearer = request.headers.get('authorization')?.replace(/^Bearer /, '');
    if (bearer) secrets.add(bearer);
    collect(await request.clone().text(), secrets);
    const response = await fetch(request);
    collect(await response.clone().text(), secrets);
    return response;
  };
}

describe('no ticket, token, client secret or password in any log line or error message', () => {
  test('a full sign-on run at debug level', async () => {
    const logger = recordingLogger();
    const secrets = new Set<string>([demoSite.clientSecret, ...Object.values(demoUsers).map((u) => u.password)]);
    const errors: string[] = [];
    const site: PlatformClient = siteClient({ logger, fetch: recordingFetch(secrets) });
    const fail = async (p: Promise<unknown>) => {
      const error = await p.then(
        () => expect.fail('expected a failure'),
        (e: unknown) => e as Error,
      );
      errors.push(`${error.name}: ${error.message} ${JSON.stringify(error)}`);
    };

    // To the shop and back (22 form a, 25, the shop's pages, 23, 24), and the replay refused.
    const shopTicket = await site.authorization.generateTicket({
      accountId: demoIds.accounts.anna,
      clientId: demoShop.clientId,
    });
    secrets.add(shopTicket.ticket);
    const returnUrl = 'http://localhost:3000/welcome';
    const b = browser();
    await b.get(
      site.shop.marketplaceUrl({
        groupId: demoShop.groupId,
        marketplaceId: demoShop.marketplaceId,
        ticket: shopTicket.ticket,
        returnUrl,
      }),
    );
    const confirmation = await b.post(`${defaultHosts.shop}/shop/purchase`, {
      group_id: demoShop.groupId,
      marketplace_id: demoShop.marketplaceId,
      period_id: demoIds.periods.basicCreditcard,
      returnUrl,
    });
    const back = await b.get(new URL(hrefOf(confirmation.text, 'return-to-site') ?? '', confirmation.url).href);
    const returnTicket = new URL(back.leftTo ?? '').searchParams.get('ticket') ?? '';
    secrets.add(returnTicket);
    const handler = site.signOn.returnHandler({ readUser: true });
    const signedIn = await handler.handleReturnUrl(back.leftTo ?? '');
    if (signedIn.status !== 'signed_in') throw new Error('not signed in');
    await fail(handler.handleReturnUrl(back.leftTo ?? ''));

    // Form (b) with the user token; SSO with a ticket; the SSO ticket exchanged; a refresh.
    const userTicket = await site.authorization.generateTicket(
      { client_id: demoSite.clientId },
      { accessToken: signedIn.tokens.access_token },
    );
    const sso = await site.sso.authenticateWithTicket({
      sessionId: platform.sso.createSession(),
      ticket: userTicket.ticket,
      ipAddress: '203.0.113.7',
      userAgent: 'test',
    });
    if (sso.status !== 'loggedin') throw new Error('SSO did not log in');
    const ssoTokens = await site.authorization.exchangeTicket({ ticket: sso.ticket });
    await site.authorization.refreshToken({ refreshToken: ssoTokens.refresh_token ?? '' });

    // Refusals: a reused ticket, a reused refresh token, a revoked user token, a bad user token.
    await fail(site.authorization.exchangeTicket({ ticket: sso.ticket }));
    await fail(site.authorization.refreshToken({ refreshToken: ssoTokens.refresh_token ?? '' }));
    await fail(site.me.get({ accessToken: ssoTokens.access_token }));
    await fail(
      site.authorization.generateTicket({ client_id: demoShop.clientId }, { accessToken: 'bogus-user-token' }),
    );
    await fail(
      siteClient({
        logger,
        credentials: { clientId: demoSite.clientId, clientSecret: 'wrong-secret-0123456789abcdef0123' },
      }).authorization.exchangeTicket({ ticket: returnTicket }),
    );
    secrets.add('wrong-secret-0123456789abcdef0123');
    secrets.add('bogus-user-token');

    // The run was logged, at debug and warn, for every host.
    const levels = new Set(logger.lines.map((l) => l.level));
    expect(levels).toContain('debug');
    expect(levels).toContain('warn');
    const logged = JSON.stringify(logger.lines);
    for (const path of [paths.generateTicket, paths.accessToken, paths.authenticateWithTicket, paths.getSignedInUser])
      expect(logged).toContain(path);

    expect(secrets.size).toBeGreaterThan(15);
    expect(errors).toHaveLength(6);
    for (const secret of secrets) {
      expect(logged, 'a secret in a log line').not.toContain(secret);
      for (const message of errors) expect(message, 'a secret in an error').not.toContain(secret);
    }
  });
});

describe('a short secret a developer tries (`invalid`, `token`, `field`) leaves the error\u2019s code and field whole', () => {
  test.each([
    ['an access token `invalid`', { accessToken: 'invalid' }, 'invalid_token', 'authorization'],
    ['an access token `token`', { accessToken: 'token' }, 'invalid_token', 'authorization'],
    [
      'a client secret `invalid`',
      { clientId: demoSite.clientId, clientSecret: 'invalid' },
      'invalid_client',
      'unspecified_field',
    ],
    [
      'a client secret `client`',
      { clientId: demoSite.clientId, clientSecret: 'client' },
      'invalid_client',
      'unspecified_field',
    ],
    [
      'a client secret `field`',
      { clientId: demoSite.clientId, clientSecret: 'field' },
      'invalid_client',
      'unspecified_field',
    ],
  ] as const)('%s: %s naming %s', async (_, auth, code, field) => {
    const options = 'accessToken' in auth ? auth : { ...auth, scopes: ['/external/product/r'] };
    const error = await client({ auth: options })
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect({ code: (error as APIError).code, field: (error as APIError).field }).toEqual({ code, field });
    expect((error as APIError).body).toMatchObject({ code, field });
  });

  test('such a secret quoted alone, or after = or a percent escape, is still left out', async () => {
    const secret = 'hunter22';
    server.use(
      http.post(`${defaultHosts.auth}${paths.accessToken}`, () =>
        HttpResponse.json(
          {
            code: 'invalid_client',
            field: 'client_secret',
            message: `refused ${secret}; sent client_secret=${secret} and client_secret%3D${secret}; ${secret}s`,
          },
          { status: 401 },
        ),
      ),
    );
    const error = await client({
      auth: { clientId: 'a-client', clientSecret: secret, scopes: ['/external/product/r'] },
    })
      .products.list()
      .catch((e: unknown) => e);
    expect((error as APIError).message).toMatch(
      /: refused \[REDACTED\]; sent client_secret=\[REDACTED\] and client_secret%3D\[REDACTED\]; hunter22s$/,
    );
  });
});

describe("an error answer that quotes the request back: the APIError quotes none of the request's secrets", () => {
  /** Not shaped like a credential (no upper case): only knowing what the request carried finds it. */
  const secret = 'echoed-client-secret-value';
  const ticket = 'echoed-ticket-value-0001';
  const refreshToken = 'echoed-refresh-token-0001';

  test.each<[string, (sent: string) => { status: number; body: string | Record<string, unknown> }]>([
    [
      'the body as JSON in the message',
      (sent) => ({ status: 400, body: { code: 'invalid_client', message: `Unknown client in ${sent}` } }),
    ],
    [
      'the secret alone in the message and the field',
      (sent) => {
        const { client_secret } = JSON.parse(sent) as { client_secret: string };
        return {
          status: 401,
          body: { code: 'invalid_client', field: client_secret, message: `${client_secret} is not the secret` },
        };
      },
    ],
    [
      'the body as a form in the message',
      (sent) => ({
        status: 400,
        body: {
          code: 'invalid_request',
          message: `Refused: ${new URLSearchParams(JSON.parse(sent) as Record<string, string>)}`,
        },
      }),
    ],
    [
      'the body echoed beside the message',
      (sent) => ({ status: 400, body: { code: 'invalid_request', message: 'Refused', request: JSON.parse(sent) } }),
    ],
    ['an answer that is not JSON', (sent) => ({ status: 400, body: `Bad request: ${sent}` })],
  ])('the token grant answered 400 with %s', async (_, answer) => {
    server.use(
      http.post(`${defaultHosts.auth}${paths.accessToken}`, async ({ request }) => {
        const { status, body } = answer(await request.text());
        return typeof body === 'string'
          ? new HttpResponse(body, { status, headers: { 'content-type': 'text/plain' } })
          : HttpResponse.json(body, { status });
      }),
    );
    const sdk = client({ auth: { clientId: 'a-client', clientSecret: secret, scopes: ['/external/product/r'] } });
    const error = await sdk.products.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect([400, 401]).toContain((error as APIError).status);
    for (const text of [(error as Error).message, String(error), JSON.stringify(error)])
      expect(text, 'a secret in the error').not.toContain(secret);
  });

  /** A client secret in base64 (`/`, `+`, `=`), with the characters Go escapes (`&`, `<`, `>`). */
  const escaped = 'q1Zr/8hT+Lm3&Np<Xa>Vb7Kc2/Wd+Ye5Rf9Gs4Ht0Ju1Ik=';
  /** Every character of a text written as a JSON `\u` escape. */
  const allEscaped = (text: string) =>
    [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

  test.each<[string, (json: string) => string]>([
    ['/ escaped as \\/ (PHP)', (json) => json.replaceAll('/', '\\/')],
    [
      '&, < and > escaped as \\u0026, \\u003c and \\u003e (Go)',
      (json) => json.replaceAll('&', '\\u0026').replaceAll('<', '\\u003c').replaceAll('>', '\\u003e'),
    ],
    ['every character of the secret escaped as \\uXXXX', (json) => json.replaceAll(escaped, allEscaped(escaped))],
  ])(
    'the token grant answered 401 quoting the client secret with %s: left out of the message and the body',
    async (_, spell) => {
      const answer = spell(
        JSON.stringify({
          code: 'invalid_client',
          message: `unknown client_secret ${escaped}`,
          // A secret as a key, and inside JSON inside a string.
          seen: { [escaped]: true, request: JSON.stringify({ sent: escaped }) },
        }),
      );
      expect(answer).not.toContain(escaped);
      server.use(
        http.post(
          `${defaultHosts.auth}${paths.accessToken}`,
          () => new HttpResponse(answer, { status: 401, headers: { 'content-type': 'application/json' } }),
        ),
      );
      const sdk = client({ auth: { clientId: 'a-client', clientSecret: escaped, scopes: ['/external/product/r'] } });
      const error = await sdk.products.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({
        code: 'invalid_client',
        message: `The client's token request (POST ${defaultHosts.auth}${paths.accessToken}) was answered 401, so the call was not sent: unknown client_secret [REDACTED]`,
      });
      const views = [
        String(error),
        JSON.stringify(error),
        inspect(error, { depth: 10 }),
        JSON.stringify((error as APIError).body),
      ];
      for (const text of views) expect(text, 'a secret in the error').not.toContain(escaped);
      expect(Object.keys((error as { body: { seen: object } }).body.seen)).toEqual(['[REDACTED]', 'request']);
    },
  );

  /** A client secret with every character HTML escapes, and those a URL encodes. */
  const special = `q1Z'r"8&hT<Lm>3+/=Np`;
  /** An HTML writer that spells `"` and `'` as given, and `&`, `<` and `>` by name. */
  const byName = (quot: string, apos: string) => (text: string) =>
    text
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', quot)
      .replaceAll("'", apos);
  /** An HTML writer that spells each of `&<>"'` by number, as `digits` writes its code. */
  const byNumber = (digits: (code: number) => string) => (text: string) =>
    text.replace(/[&<>"']/g, (c) => `&#${digits(c.charCodeAt(0))};`);
  /** Percent-encoding, its escapes' digits in lower case. */
  const lowerCaseEscapes = (text: string) => text.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());

  test.each<[string, (secret: string) => string]>([
    ['&amp;, &lt;, &gt;, &quot; and &#39;', byName('&quot;', '&#39;')],
    ["&#x27; (Python's html.escape)", byName('&quot;', '&#x27;')],
    ["&#039; (PHP's htmlspecialchars)", byName('&quot;', '&#039;')],
    ['&apos; (HTML5, XML)', byName('&quot;', '&apos;')],
    ["&#34; and &#39; (Go's html)", byName('&#34;', '&#39;')],
    ['&amp;, &lt; and &gt;, the quotes as they are (text outside an attribute)', byName('"', "'")],
    ['every one of &<>"\' by number, in decimal', byNumber((code) => `${code}`)],
    ['every one of &<>"\' by number, in hexadecimal', byNumber((code) => `x${code.toString(16)}`)],
    [
      'every one of &<>"\' by number, in hexadecimal with capital digits',
      byNumber((code) => `x${code.toString(16).toUpperCase()}`),
    ],
    ['JSON-escaped, / as \\/ (PHP)', (secret) => JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/')],
    [
      'JSON-escaped, &, < and > as \\u0026, \\u003c and \\u003e (Go)',
      (secret) =>
        JSON.stringify(secret)
          .slice(1, -1)
          .replaceAll('&', '\\u0026')
          .replaceAll('<', '\\u003c')
          .replaceAll('>', '\\u003e'),
    ],
    ['percent-encoded, the escapes in lower case', (secret) => lowerCaseEscapes(encodeURIComponent(secret))],
    [
      'form-encoded, the escapes in lower case',
      (secret) => lowerCaseEscapes(new URLSearchParams({ s: secret }).toString().slice(2)),
    ],
  ])('the token grant answered 400 with a page quoting the client secret with %s: left out', async (_, spell) => {
    const quoted = spell(special);
    expect(quoted).not.toContain(special);
    server.use(
      http.post(
        `${defaultHosts.auth}${paths.accessToken}`,
        () =>
          new HttpResponse(`<p>unknown client_secret ${quoted}</p>`, {
            status: 400,
            headers: { 'content-type': 'text/html' },
          }),
      ),
    );
    const sdk = client({ auth: { clientId: 'a-client', clientSecret: special, scopes: ['/external/product/r'] } });
    const error = await sdk.products.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    for (const text of [String(error), JSON.stringify(error), inspect(error, { depth: 10 })]) {
      expect(text, 'a secret in the error').not.toContain(quoted);
      expect(text).not.toContain(special);
    }
    expect((error as APIError).body).toBe('<p>unknown client_secret [REDACTED]</p>');
  });

  test('a ticket exchange and a refresh: the ticket, the refresh token and the credentials are left out', async () => {
    server.use(
      http.post(`${defaultHosts.auth}${paths.accessToken}`, async ({ request }) =>
        HttpResponse.json({ code: 'invalid_grant', message: `Refused ${await request.text()}` }, { status: 400 }),
      ),
    );
    const sdk = siteClient({ credentials: { clientId: demoSite.clientId, clientSecret: secret } });
    const errors = [
      await sdk.authorization.exchangeTicket({ ticket }).catch((e: unknown) => e),
      await sdk.authorization.refreshToken({ refreshToken }).catch((e: unknown) => e),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as Error).message.startsWith('Refused ')).toBe(true);
      for (const text of [(error as Error).message, String(error), JSON.stringify(error)])
        for (const value of [secret, ticket, refreshToken]) expect(text).not.toContain(value);
    }
  });

  test("a secret quoted back in the answer's headers: left out of APIError.headers", async () => {
    const userToken = 'echoed-user-token-value-0002';
    const apiKey = 'echoed-api-key-value/0002';
    server.use(
      http.get(
        `${defaultHosts.api}${paths.getSignedInUser}`,
        ({ request }) =>
          new HttpResponse(JSON.stringify({ code: 'invalid_token', message: 'The token has expired' }), {
            status: 401,
            headers: [
              ['content-type', 'application/json'],
              ['x-correlation-id', 'f3a9c2d0-5b1e-4c7a-9f00-0123456789ab'],
              ['www-authenticate', `Bearer error="invalid_token", error_description="token ${userToken} expired"`],
              ['link', `<https://docs.example.test/keys?key=${encodeURIComponent(apiKey)}>; rel="help"`],
              ['x-echo', `${request.headers.get('x-api-key')}`],
              ['set-cookie', 'session=a-session-of-the-host; Path=/'],
            ],
          }),
      ),
    );
    const error = await client({ headers: { 'x-api-key': apiKey } })
      .me.get({ accessToken: userToken })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const { headers, correlationId } = error as APIError;
    expect(headers.get('www-authenticate')).toBe(
      'Bearer error="invalid_token", error_description="token [REDACTED] expired"',
    );
    expect(headers.get('link')).toBe('<https://docs.example.test/keys?key=[REDACTED]>; rel="help"');
    expect(headers.get('x-echo')).toBe('[REDACTED]');
    expect(headers.get('set-cookie')).toBe('[REDACTED]');
    // What quotes nothing is kept as it is.
    expect(headers.get('content-type')).toBe('application/json');
    expect(correlationId).toBe('f3a9c2d0-5b1e-4c7a-9f00-0123456789ab');
    const shown = [inspect(error, { depth: 10 }), JSON.stringify([...headers]), String(error), JSON.stringify(error)];
    for (const text of shown)
      for (const secret of [userToken, apiKey, encodeURIComponent(apiKey), 'a-session-of-the-host'])
        expect(text).not.toContain(secret);
  });

  describe('an SSO operation: the secrets it signs into its request token (`pwd`, the ticket `at`, the session `sid`) are left out', () => {
    /** Not shaped like credentials (no upper case): only knowing what the token carried finds them. */
    const password = 'echoed-sso-password-0003';
    const ticket = 'echoed-sso-ticket-0003';
    const sessionId = 'echoed-sso-session-0003';
    const visitor = { ipAddress: '203.0.113.9', userAgent: 'a-browser/1.0' };
    /** Each operation, its path, and the secret it signs besides the session id. */
    const calls: [string, string, string, (sdk: PlatformClient) => Promise<unknown>][] = [
      [
        'sso.authenticate',
        paths.ssoAuthenticate,
        password,
        (sdk) => sdk.sso.authenticate({ sessionId, email: 'anna@example.test', password, ...visitor }),
      ],
      [
        'sso.authenticateWithTicket',
        paths.authenticateWithTicket,
        ticket,
        (sdk) => sdk.sso.authenticateWithTicket({ sessionId, ticket, ...visitor }),
      ],
    ];

    test.each(calls)(
      '%s answered 400 quoting them in its message, its body and a header: left out of all of them',
      async (_, path, secret, call) => {
        server.use(
          http.post(`${defaultHosts.sso}${path}`, () =>
            HttpResponse.json(
              {
                code: 'invalid_parameter',
                field: 'pwd',
                message: `"${secret}" refused; session ${sessionId}`,
                seen: { [secret]: sessionId },
              },
              {
                status: 400,
                headers: { 'x-echo': secret, 'www-authenticate': `Bearer error_description="${sessionId}"` },
              },
            ),
          ),
        );
        const error = await call(siteClient()).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(BadRequestError);
        expect((error as Error).message).toBe('"[REDACTED]" refused; session [REDACTED]');
        const { body, headers } = error as APIError;
        expect(body).toMatchObject({ seen: { '[REDACTED]': '[REDACTED]' } });
        expect(headers.get('x-echo')).toBe('[REDACTED]');
        const shown = [
          String(error),
          JSON.stringify(error),
          inspect(error, { depth: 10 }),
          JSON.stringify(body),
          JSON.stringify([...headers]),
        ];
        for (const text of shown) for (const value of [secret, sessionId]) expect(text).not.toContain(value);
      },
    );

    test.each(calls)(
      '%s failing in a fetch whose error quotes them: left out of the message and the cause',
      async (_, __, secret, call) => {
        const failing: typeof fetch = async () => {
          throw new TypeError(`fetch failed for ${secret}`, { cause: new Error(`session ${sessionId}`) });
        };
        const error = await call(siteClient({ fetch: failing, maxRetries: 0 })).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(APIConnectionError);
        const { cause } = error as APIConnectionError;
        expect(cause).toMatchObject({ message: 'fetch failed for [REDACTED]' });
        expect((cause as Error).cause).toMatchObject({ message: 'session [REDACTED]' });
        for (const text of [String(error), inspect(error, { depth: 10 })])
          for (const value of [secret, sessionId]) expect(text).not.toContain(value);
      },
    );
  });

  test("a user's token quoted back: left out too", async () => {
    const userToken = 'echoed-user-token-value-0001';
    server.use(
      http.post(`${defaultHosts.auth}${paths.generateTicket}`, ({ request }) =>
        HttpResponse.json(
          { code: 'invalid_token', message: `Token ${request.headers.get('authorization')} is not known` },
          { status: 401 },
        ),
      ),
    );
    const error = await client()
      .authorization.generateTicket({ client_id: demoShop.clientId }, { accessToken: userToken })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as Error).message).toBe('Token [REDACTED] is not known');
    expect(JSON.stringify(error)).not.toContain(userToken);
  });
});

describe("a fetch whose failure carries the request it was given (as an HTTP library's error may): the APIConnectionError's cause keeps none of its secrets", () => {
  const ticket = 'carried-ticket-0123456789';
  const secret = 'carried-client-secret-0123456789';
  /** A client whose every attempt fails with what `failure` makes of the request it was given. */
  const failingWith = (failure: (url: string, init: RequestInit) => unknown) =>
    siteClient({
      credentials: { clientId: demoSite.clientId, clientSecret: secret },
      maxRetries: 0,
      fetch: async (input, init = {}) => {
        throw failure(String(input), init);
      },
    });
  const exchange = (sdk: PlatformClient) => sdk.authorization.exchangeTicket({ ticket }).catch((e: unknown) => e);
  /** The texts a logger or a reader of the error would see, none of which may hold a secret. */
  const shown = (error: unknown) => [String(error), inspect(error, { depth: 10, showHidden: true })];

  test('fields of texts and plain data: the texts cleaned, data quoting a secret left out, the rest kept', async () => {
    const error = await exchange(
      failingWith((url, init) =>
        Object.assign(new TypeError('fetch failed'), {
          code: 'ECONNRESET',
          errno: -104,
          url,
          requestBody: init.body,
          config: { url, headers: { ...(init.headers as Record<string, string>) }, data: init.body },
          socket: { remotePort: 443, bytesWritten: 0 },
        }),
      ),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    const cause = (error as APIConnectionError).cause as Record<string, unknown>;
    expect(cause).toBeInstanceOf(TypeError);
    expect(cause.message).toBe('fetch failed');
    expect(cause).toMatchObject({ code: 'ECONNRESET', errno: -104, socket: { remotePort: 443, bytesWritten: 0 } });
    expect(cause.requestBody).toContain('"ticket":"[REDACTED]"');
    expect(cause).not.toHaveProperty('config');
    for (const text of shown(error)) for (const value of [ticket, secret]) expect(text).not.toContain(value);
  });

  test('an object the SDK cannot see into (a Request) is left out; failures among the fields stand in cleaned', async () => {
    const error = await exchange(
      failingWith((url, init) =>
        Object.assign(new Error('request failed'), {
          request: new Request(url, init),
          errors: [new Error(`the body was ${String(init.body)}`), new Error('no route to host')],
        }),
      ),
    );
    const cause = (error as APIConnectionError).cause as Record<string, unknown>;
    expect(cause).not.toHaveProperty('request');
    expect(cause.errors).toEqual([expect.any(Error), expect.any(Error)]);
    const [first, second] = cause.errors as Error[];
    expect(first?.message).toContain('"ticket":"[REDACTED]"');
    expect(second?.message).toBe('no route to host');
    for (const text of shown(error)) for (const value of [ticket, secret]) expect(text).not.toContain(value);
  });

  test('a thrown object that is not an Error: kept when it quotes nothing, no cause when it quotes a secret', async () => {
    const quoting = await exchange(failingWith((_, init) => ({ reason: 'refused', body: init.body })));
    expect(quoting).toBeInstanceOf(APIConnectionError);
    expect((quoting as APIConnectionError).cause).toBeUndefined();
    for (const text of shown(quoting)) for (const value of [ticket, secret]) expect(text).not.toContain(value);

    const plain = { reason: 'refused', retryable: false };
    const quiet = await exchange(failingWith(() => plain));
    expect((quiet as APIConnectionError).cause).toBe(plain);
  });

  test('a failure that quotes nothing, in no field: the cause is the failure itself, not a copy', async () => {
    const failure = Object.assign(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }), {
      code: 'ECONNREFUSED',
      address: { host: '127.0.0.1', port: 9 },
    });
    const error = await exchange(failingWith(() => failure));
    expect((error as APIConnectionError).cause).toBe(failure);
  });
});
