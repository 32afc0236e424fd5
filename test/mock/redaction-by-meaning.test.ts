/**
 * Redaction by what a name means and what a value looks like (issue 22, finding 7): near-names of
 * secrets (`client_secret[]`, `"client secret"`, the full-width `ｃlient_secret`, the long-s
 * `client_ſecret`, a trailing NUL), secret-bearing headers (`x-api-key`, `x-auth-token`,
 * `x-client-secret`), a `returnUrl` nested four deep and a JWT under a harmless name are redacted
 * in the journal, in the request log line and by the SDK's logger, by one rule (`src/secrets.ts`).
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { newSecret } from '../../mock/core/ids.js';
import { redactJsonLikeKeys, redactMultipart } from '../../mock/core/loose-redaction.js';
import { type RequestLogLine, type RunningServer, startServer } from '../../mock/node/index.js';
import { REDACTED as LOGGED, redact } from '../../src/logger.js';
import {
  decodeParam,
  isSecretName,
  LONGEST_NAME,
  normaliseName,
  redactJsonText,
  redactParams,
  redactShapes,
  redactText,
} from '../../src/secrets.js';
import { until } from '../until.js';
import { ADAPTERS, type Answer, demoIds, demoShop, paths, useAdapter } from './harness.js';
import { rawRequest } from './raw-http.js';

/** A secret that only its name gives away: lower case, so no value-shape rule catches it. */
const VALUE = 'near-name-secret-value-0123456789';

/** A JWT (HS256, `{"sub":"anna"}`), shaped as the SSO service's tokens are. */
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbm5hIiwiaWF0IjoxNzAwMDAwMDAwfQ.' +
  'c2lnbmF0dXJlLW9mLXRoZS10b2tlbi0wMTIzNDU2Nzg5YWJj';

/** A ticket as the platform issues them: 32 random bytes in base64url. */
const TICKET = 'Qm9vdHN0cmFwLXRpY2tldC1fMDEyMzQ1Njc4OWFiY2RlZg';

/** Every near-name of a secret the attack run found visible, and the names of secret-bearing headers. */
const NEAR_NAMES = [
  'client_secret[]',
  'client_secret+',
  'client_secret\u0000',
  'client secret',
  'client_secret ',
  'ｃlient_secret',
  'client_ſecret',
  'CLIENT-SECRET',
  'clientSecret',
  'x-api-key',
  'x-auth-token',
  'x-client-secret',
  'x-shop-secret',
  'api_key',
  'new_password',
  'id_token',
  'session_tokens',
  'ｔｉｃｋｅｔ',
  'x-cookies',
  'x-session-cookies',
  'x-authorizations',
  'x-tickets',
];

/** Names that carry no secret, though some hold the letters of one. */
const HARMLESS_NAMES = [
  'client_id',
  'token_type',
  'expires_in',
  'grant_type',
  'scope',
  'returnUrl',
  'ticket_configuration',
  'product_type',
  'q',
  'email',
  'x-correlation-id',
  'user-agent',
];

/** The journal entry of this answer, by its correlation id. */
function entryFor(h: ReturnType<typeof useAdapter>, answer: Answer) {
  const id = answer.headers.get('x-correlation-id');
  const entry = h.platform.requests.list().find((e) => e.correlation_id === id);
  if (!entry) throw new Error(`no journal entry with the correlation id ${id}`);
  return entry;
}

/** A URL whose `returnUrl` holds a URL whose `returnUrl` ... `depth` deep, the last carrying a ticket. */
function nestedReturnUrl(depth: number, secret: string): string {
  let url = `https://site.example/${depth}?ticket=${secret}&tab=1`;
  for (let d = depth - 1; d >= 1; d--) url = `https://site.example/${d}?returnUrl=${encodeURIComponent(url)}`;
  return url;
}

/** A text with its percent-escapes decoded until none is left. */
function unescaped(text: string): string {
  let out = text;
  for (let next = decodeURIComponent(out); next !== out; next = decodeURIComponent(out)) out = next;
  return out;
}

describe('what a name means: names compared after NFKC, case folding and removal of non-alphanumerics', () => {
  test.each(NEAR_NAMES)('%j is a secret name', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  test.each(['token', 'authorization', 'cookie', 'ticket'].flatMap((ending) => [ending, `${ending}s`]))(
    'a name that ends in %j is a secret name (docs/security.md: these endings and their plurals)',
    (ending) => {
      expect(isSecretName(`x-session-${ending}`)).toBe(true);
    },
  );

  test.each(HARMLESS_NAMES)('%j is not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });

  test('the forms of one name normalise alike', () => {
    const forms = [
      'client_secret',
      'Client-Secret',
      'client secret\u0000',
      'ｃlient_secret',
      'client_ſecret',
      'clientSecret[]',
    ];
    expect(new Set(forms.map(normaliseName))).toEqual(new Set(['clientsecret']));
  });

  test('a name longer than 256 characters is judged by its end: a secret name there is one, elsewhere not', () => {
    expect(LONGEST_NAME).toBe(256);
    const lead = 'x'.repeat(2 * LONGEST_NAME);
    expect(isSecretName(`${lead}_client_secret`)).toBe(true);
    expect(isSecretName(`${lead}-auth-token`)).toBe(true);
    expect(isSecretName(`${lead}_type`)).toBe(false);
    // Beyond the last 256 characters a word is not read: no name of the spec is that long.
    expect(isSecretName(`password${lead}`)).toBe(false);
    const path = `/${'segment/'.repeat(64)}client_secret=MK-path`;
    expect(redactText(`GET ${path} 404`, '[x]')).toBe(`GET ${path.replace('MK-path', '[x]')} 404`);
    expect(redactParams(path, '[x]', 'url')).toBe(path.replace('MK-path', '[x]'));
  });

  test('percent-escapes decode as a form reads them, a broken one kept as it is', () => {
    expect(decodeParam('client%5Fsecret')).toBe('client_secret');
    expect(decodeParam('a+b%2Bc')).toBe('a b+c');
    expect(decodeParam('%')).toBe('%');
    expect(decodeParam('100%')).toBe('100%');
    expect(decodeParam('%zz%41')).toBe('%zzA');
    expect(decodeParam('%E2%82')).toBe('\uFFFD');
    expect(decodeParam('?a%26b=c%3D%')).toBe('?a&b=c=%');
    expect(decodeParam('caf%C3%A9#x')).toBe('café#x');
  });
});

describe('what a value looks like: credentials under any name', () => {
  test.each([
    ['a JWT', JWT],
    ['a ticket (43 base64url characters)', TICKET],
    ['an SSO session id (32 base64url characters)', 'S3ss10n-Id_0f-thirty-two-chars_A'],
  ])('%s is redacted, alone and inside text', (_, credential) => {
    expect(redactShapes(credential, '[x]')).toBe('[x]');
    expect(redactShapes(`q=${credential}&page=2`, '[x]')).toBe('q=[x]&page=2');
    expect(redactShapes(`/v1/x/${credential}/y`, '[x]')).toBe('/v1/x/[x]/y');
    // After a percent escape (a value encoded twice): the escape's digits are the text's, not the credential's.
    expect(redactShapes(`q%3D${credential}&page=2`, '[x]')).toBe('q%3D[x]&page=2');
    expect(redactShapes(`q%3d${credential}`, '[x]')).toBe('q%3d[x]');
  });

  test.each([
    ['a record id', '65a1f0c2b3d4e5f6a7b8c9d0'],
    ['a UUID', '0f8fad5b-d9cb-469f-a165-70867728950e'],
    ['a long word', 'subscription-platform-sdk-version-two'],
    ['a host name', 'api.subscription-platform.example'],
    ['a sentence', 'The quick brown fox jumps over the lazy dog 0123456789'],
  ])('%s is kept', (_, text) => {
    expect(redactShapes(text, '[x]')).toBe(text);
  });
});

describe('bodies the platform never parses: a multipart part named as a secret', () => {
  /** A multipart body of these parts (Content-Disposition parameters, value), with the boundary `bb`. */
  const multipart = (parts: [string, string][], eol = '\r\n') =>
    `${parts.map(([p, v]) => `--bb${eol}Content-Disposition: form-data; ${p}${eol}${eol}${v}${eol}`).join('')}--bb--`;

  test.each([
    ['name="client_secret"'],
    ['name=client_secret'],
    ['NAME="x-api-key"'],
    ['name="client%5Fsecret"'],
    ['name="ｃlient_secret[]"'],
    ["name*=UTF-8''access_token"],
  ])('%s: the value redacted from the blank line to the line break before the delimiter', (param) => {
    const body = multipart([
      ['name="grant_type"', 'none'],
      [param, VALUE],
      ['name="note"', 'kept'],
    ]);
    expect(redactMultipart(body, '[x]')).toBe(
      multipart([
        ['name="grant_type"', 'none'],
        [param, '[x]'],
        ['name="note"', 'kept'],
      ]),
    );
  });

  test('a value over several lines, with a line that starts with -- but is not the delimiter: redacted whole', () => {
    const body = multipart([['name=password', `${VALUE}\r\n--not-bb\r\n${VALUE}`]]);
    expect(redactMultipart(body, '[x]')).toBe(multipart([['name=password', '[x]']]));
  });

  test('an empty value, a value never ended, lines ended by LF alone', () => {
    expect(redactMultipart(multipart([['name="token"', '']]), '[x]')).toBe(multipart([['name="token"', '[x]']]));
    expect(
      redactMultipart(`--bb\r\nContent-Disposition: form-data; name="token"\r\n\r\n${VALUE} and more`, '[x]'),
    ).toBe('--bb\r\nContent-Disposition: form-data; name="token"\r\n\r\n[x]');
    expect(redactMultipart(multipart([['name="pwd"', VALUE]], '\n'), '[x]')).toBe(
      multipart([['name="pwd"', '[x]']], '\n'),
    );
  });

  test('kept: harmless names, a file name that names a secret, a form, text with no blank line', () => {
    const body = multipart([
      ['name="token_type"', 'bearer'],
      ['name="upload"; filename="password.txt"', 'file text'],
    ]);
    for (const text of [body, 'name=password&x=1', 'grant_type=none&client_secret=abc', 'name="token" and no part'])
      expect(redactMultipart(text, '[x]')).toBe(text);
  });
});

describe('JSON-like bodies that are not JSON: keys in single quotes or bare', () => {
  test.each([
    [`{'client_secret': '${VALUE}'}`, "{'client_secret': '[x]'}"],
    [`{client_secret: "${VALUE}"}`, '{client_secret: "[x]"}'],
    [`{clientSecret : ${VALUE}, a: 1}`, '{clientSecret : "[x]", a: 1}'],
    [`{password: {a: '}', b: '${VALUE}'}, keep: 1}`, '{password: "[x]", keep: 1}'],
    [`[{token: ['${VALUE}']}, {'p\\u0061ssword': 'it\\'s ${VALUE}'}]`, `[{token: "[x]"}, {'p\\u0061ssword': '[x]'}]`],
    [`{ticket: '${VALUE}`, "{ticket: '[x]'"],
    [
      `{returnUrl: 'https://site.example/back?ticket=${VALUE}&tab=1'}`,
      "{returnUrl: 'https://site.example/back?ticket=[x]&tab=1'}",
    ],
  ])('%s is shown as %s', (text, shown) => {
    expect(redactJsonLikeKeys(text, '[x]')).toBe(shown);
  });

  test('an apostrophe in a bare value hides no key after it', () => {
    expect(redactJsonLikeKeys(`{note: it's, api_key: ${VALUE}}`, '[x]')).toBe(`{note: it's, api_key: "[x]"}`);
  });

  test("valid JSON is left as it is (its keys are redactJsonText's), prose in its strings too", () => {
    for (const text of [
      `{"a":"b","password":"${VALUE}","n":[1,-2.5e3,true,null]}`,
      '{"note":"token: expired","it\'s":"x: y"}',
    ]) {
      expect(redactJsonLikeKeys(text, '[x]')).toBe(text);
    }
    expect(redactJsonLikeKeys(redactJsonText(`{"password":"${VALUE}"}`, '[x]'), '[x]')).toBe('{"password":"[x]"}');
  });

  test('free text is not JSON-like: the logger still keeps "token: expired"', () => {
    expect(redactText('the token: expired', '[x]')).toBe('the token: expired');
  });
});

/** A credential shaped as this platform's tokens are: 43 base64url characters (32 random bytes). */
const TOKEN43 = 'Zq9xR3vT7yWb2LmN8pKd4HsJ6fGa1CeU0oIiYtXqVw_';

/**
 * Prose that names a bearer token without carrying one: a placeholder (`<token>`, `<admin token>`,
 * `${TOKEN}`), a word that follows `Bearer` in a sentence or a challenge (`token:`, `realm`), and
 * `token:` before a word. Kept whole, by the journal's and by the SDK logger's redaction.
 */
const PROSE = [
  'Missing bearer token: send Authorization: Bearer <token>',
  'Malformed Authorization header: expected Bearer <token>',
  'The admin API requires Authorization: Bearer <admin token>',
  'the token: expired',
  'Bearer realm',
  'WWW-Authenticate: Bearer realm="platform", error="invalid_token"',
  'Bearer realm=platform, error=insufficient_scope',
  'curl -H "Authorization: Bearer $TOKEN" or Bearer {token}',
  'Bearer or Basic: the Bearer scheme (a Bearer token). Bearer tokens expire.',
  'BEARER TOKEN missing, `Bearer token` required',
  'Bearer ...',
];

/** Credentials after `token:` and `Bearer`: redacted where they were redacted before prose was kept (`%s` is the marker). */
const CREDENTIALS: [string, string][] = [
  [`token: ${TOKEN43}`, 'token: %s'],
  [`the bearer token: ${TOKEN43}`, 'the bearer token: %s'],
  ['Authorization: Bearer abc.def.ghi', 'Authorization: Bearer %s'],
  [`Authorization: Bearer ${TOKEN43}`, 'Authorization: Bearer %s'],
  [`Bearer ${JWT}`, 'Bearer %s'],
  [
    `Missing bearer token: send Authorization: Bearer ${TOKEN43}`,
    'Missing bearer token: send Authorization: Bearer %s',
  ],
  ['sent Bearer xyz', 'sent Bearer %s'],
  ['sent Bearer wrong', 'sent Bearer %s'],
  ['sent Bearer not-a-token and Bearer s3cret-admin-token', 'sent Bearer %s and Bearer %s'],
  ['sent Bearer abc123.', 'sent Bearer %s'],
  ['(Bearer abc123)', '(Bearer %s'],
  ['Bearer <s3cr3t>', 'Bearer %s'],
  ['Bearer tOkEn', 'Bearer %s'],
  ['Bearer token=abc123', 'Bearer %s'],
  ['bearer\tabc_def', 'bearer\t%s'],
];

describe('prose stays readable: only what could be a credential after `token:` or `Bearer` is redacted', () => {
  test.each(PROSE)('%j is kept whole, by the journal and by the SDK logger', (text) => {
    expect(redactText(text, '[redacted]')).toBe(text);
    expect(redact(text)).toBe(text);
  });

  test.each(CREDENTIALS)('%j: the credential is redacted, by the journal and by the SDK logger', (text, expected) => {
    expect(redactText(text, '[redacted]')).toBe(expected.replaceAll('%s', '[redacted]'));
    expect(redact(text)).toBe(expected.replaceAll('%s', LOGGED));
  });
});

describe.each(ADAPTERS)('the journal, through %s', (kind) => {
  const h = useAdapter(kind);
  const journal = () => JSON.stringify(h.platform.requests.list());

  test.each(NEAR_NAMES)('%j as a JSON key, a form field, a query parameter and a header: redacted', async (name) => {
    const answers = [
      await h.call(paths.accessToken, {
        host: 'auth',
        body: `{"grant_type":"none",${JSON.stringify(name)}:${JSON.stringify(VALUE)}}`,
        headers: { 'content-type': 'application/json' },
      }),
      await h.call(paths.accessToken, {
        host: 'auth',
        body: `grant_type=none&${encodeURIComponent(name)}=${VALUE}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      await h.call(paths.getProducts, { query: `?${encodeURIComponent(name)}=${VALUE}` }),
    ];
    // A header name is a token: only the names that can be sent as one.
    if (/^[a-z-]+$/i.test(name)) answers.push(await h.call(paths.getProducts, { headers: { [name]: VALUE } }));
    for (const answer of answers) expect(JSON.stringify(entryFor(h, answer))).toContain('[redacted]');
    expect(journal()).not.toContain(VALUE);
  });

  test('the JSON keys of the attack run, escaped as it sent them ("client_secret\\u0000", "\\uff43lient_secret")', async () => {
    const body = `{"client_secret\\u0000":"${VALUE}","\\uff43lient_secret":"${VALUE}","client_\\u017fecret":"${VALUE}"}`;
    const answer = await h.call(paths.accessToken, {
      host: 'auth',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(entryFor(h, answer).body).toBe(
      '{"client_secret\\u0000":"[redacted]","\\uff43lient_secret":"[redacted]","client_\\u017fecret":"[redacted]"}',
    );
    expect(journal()).not.toContain(VALUE);
  });

  test('query key client_secret%00: redacted in the query and the URL', async () => {
    const answer = await h.call(paths.getProducts, { query: `?client_secret%00=${VALUE}&page=1` });
    const entry = entryFor(h, answer);
    expect(entry.query).toEqual({ 'client_secret\u0000': '[redacted]', page: '1' });
    expect(entry.url).not.toContain(VALUE);
  });

  test('a returnUrl nested four deep: the ticket at the bottom is redacted, in the query and the URL', async () => {
    const answer = await h.call('/shop/return', { host: 'shop', query: { returnUrl: nestedReturnUrl(4, VALUE) } });
    const entry = entryFor(h, answer);
    expect(journal()).not.toContain(VALUE);
    expect(entry.query.returnUrl).toBe(nestedReturnUrl(4, '[redacted]'));
  });

  test('a returnUrl nested four deep in a JSON body and a form body: redacted', async () => {
    const returnUrl = nestedReturnUrl(4, VALUE);
    const json = await h.call(paths.accessToken, { host: 'auth', json: { a: { b: { c: { d: { returnUrl } } } } } });
    const form = await h.call(paths.accessToken, { host: 'auth', form: { grant_type: 'none', returnUrl } });
    const redacted = nestedReturnUrl(4, '[redacted]');
    expect(entryFor(h, json).body).toBe(JSON.stringify({ a: { b: { c: { d: { returnUrl: redacted } } } } }));
    expect(entryFor(h, form).body).toBe(`grant_type=none&returnUrl=${encodeURIComponent(redacted)}`);
    expect(journal()).not.toContain(VALUE);
  });

  test('a JWT and a ticket under harmless names, in the query, a header, a JSON body and the path: redacted', async () => {
    const answers = [
      await h.call(paths.getProducts, { query: `?q=${JWT}&note=${TICKET}` }),
      await h.call(paths.getProducts, { headers: { 'x-trace': JWT, 'x-note': `ticket is ${TICKET}` } }),
      await h.call(paths.accessToken, { host: 'auth', json: { grant_type: 'none', note: JWT, ref: TICKET } }),
      await h.call(`/external/product/${TICKET}`),
    ];
    for (const answer of answers) expect(JSON.stringify(entryFor(h, answer))).toContain('[redacted]');
    expect(journal()).not.toContain(JWT);
    expect(journal()).not.toContain(TICKET);
  });

  test('a token, a ticket and an SSO session id the platform issued, after `Bearer` and `token:`: redacted', () => {
    const issued = [
      h.token(),
      h.platform.issueTicket({ accountId: demoIds.accounts.anna, clientId: demoShop.clientId }),
      h.platform.sso.createSession(),
    ];
    for (const credential of issued) {
      for (const text of [`Authorization: Bearer ${credential}`, `bearer token: ${credential}`]) {
        const redacted = redactText(text, '[redacted]');
        expect(redacted).not.toContain(credential);
        expect(redacted.endsWith(' [redacted]')).toBe(true);
        expect(redact(text)).not.toContain(credential);
      }
    }
  });

  test('a credential the platform issues always has the shape redaction recognises: a draw of letters only is drawn again', () => {
    // All-zero bytes are `AAAA...` in base64url: letters only, no credential's shape.
    const draw = vi.spyOn(crypto, 'getRandomValues').mockImplementationOnce((array: ArrayBufferView) => {
      if (array instanceof Uint8Array) array.fill(0);
      return array;
    });
    try {
      const secret = newSecret(24);
      expect(draw).toHaveBeenCalledTimes(2);
      expect(secret).not.toBe('A'.repeat(32));
      expect(redactText(`bearer token: ${secret}`, '[redacted]')).toBe('bearer token: [redacted]');
    } finally {
      draw.mockRestore();
    }
  });

  test('harmless names and values are kept', async () => {
    const answer = await h.call(paths.getProducts, {
      query: '?product_type=packages&token_type=bearer&id=65a1f0c2b3d4e5f6a7b8c9d0',
    });
    expect(entryFor(h, answer).query).toEqual({
      product_type: 'packages',
      token_type: 'bearer',
      id: '65a1f0c2b3d4e5f6a7b8c9d0',
    });
  });
});

describe('the request log line', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test('near-names, a returnUrl four deep and a JWT under a harmless name: redacted', async () => {
    const lines: RequestLogLine[] = [];
    server = await startServer({ port: 0, seed: 'demo', onRequest: (line) => lines.push(line) });
    const targets = [
      `${paths.getProducts}?client_secret%00=${VALUE}`,
      `${paths.getProducts}?${encodeURIComponent('client_secret[]')}=${VALUE}`,
      `${paths.getProducts}?${encodeURIComponent('ｃlient_secret')}=${VALUE}`,
      `${paths.getProducts}?x-api-key=${VALUE}`,
      `/shop/return?returnUrl=${encodeURIComponent(nestedReturnUrl(4, VALUE))}`,
      `${paths.getProducts}?q=${JWT}`,
      `/external/product/${TICKET}`,
    ];
    for (const target of targets) await rawRequest(server.url, target);
    await until(() => expect(lines).toHaveLength(targets.length));
    const logged = JSON.stringify(lines);
    for (const secret of [VALUE, JWT, TICKET]) expect(logged).not.toContain(secret);
    // The marker sits as deep as the secret did: percent-escaped once per level.
    expect(lines.filter((line) => !unescaped(line.path).includes('[redacted]'))).toEqual([]);
  });
  test('JSON in a query value and a secret name=value in the path: redacted in the line and its refusal, as in the journal', async () => {
    const lines: RequestLogLine[] = [];
    server = await startServer({ port: 0, seed: 'demo', onRequest: (line) => lines.push(line) });
    const json = encodeURIComponent(JSON.stringify({ password: 'MK06', name: 'anna' }));
    const targets = [`/nope?x=${json}&filter=${encodeURIComponent('{"name":"anna"}')}`, '/nope/client_secret=MK08'];
    for (const target of targets) await rawRequest(server.url, target);
    await until(() => expect(lines).toHaveLength(targets.length));
    expect(lines.map((l) => [l.path, l.refusal?.detail])).toEqual([
      [
        `/nope?x=${encodeURIComponent(JSON.stringify({ password: '[redacted]', name: 'anna' }))}&filter=${encodeURIComponent('{"name":"anna"}')}`,
        'No route for GET /nope',
      ],
      ['/nope/client_secret=[redacted]', 'No route for GET /nope/client_secret=[redacted]'],
    ]);
    const journal = JSON.stringify(server.platform.requests.list());
    expect(`${JSON.stringify(lines)}${journal}`).not.toMatch(/MK0[68]/);
  });

  test("a value redacted beside a lone surrogate (JSON's `\\ud800`), in a query, a body and a refusal: logged, journaled, and the server goes on", async () => {
    const lines: RequestLogLine[] = [];
    server = await startServer({ port: 0, seed: 'demo', onRequest: (line) => lines.push(line) });
    const shaped = 'ABCDEFGHIJKLMNOPabcdefghijklmnop0123';
    const quoted = `x=\\ud800${shaped}`;
    const json = (text: string) =>
      fetch(`${server!.url}${text}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"a":"${quoted}"}`,
      });
    expect((await rawRequest(server.url, `/openapi.json?q=${encodeURIComponent(`{"a":"${quoted}"}`)}`)).status).toBe(
      400,
    );
    expect((await json('/nope')).status).toBe(404);
    const grant = await fetch(`${server.url}${paths.accessToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"grant_type":"none","client_id":"demo-client","client_secret":"wrong","${quoted}":1}`,
    });
    expect(grant.status).toBe(400);
    await until(() => expect(lines).toHaveLength(3));
    expect(JSON.stringify(lines)).not.toContain(shaped);
    // The journal reads them, again and again, and the server answers what comes next.
    for (let i = 0; i < 2; i++) expect(JSON.stringify(server.platform.requests.list())).not.toContain(shaped);
    expect((await fetch(`${server.url}/__admin/requests`)).status).toBe(200);
    expect((await rawRequest(server.url, '/openapi.json')).status).toBe(200);
  });

  test('a request without a token: the refusal is logged whole, its placeholder kept', async () => {
    const lines: RequestLogLine[] = [];
    server = await startServer({ port: 0, seed: 'demo', onRequest: (line) => lines.push(line) });
    await rawRequest(server.url, paths.getProducts);
    await until(() => expect(lines).toHaveLength(1));
    expect(lines[0]?.refusal).toEqual({
      check: 'token',
      detail: 'Missing bearer token: send Authorization: Bearer <token>',
    });
  });
});

describe("the SDK's logger: the same rule", () => {
  test.each(NEAR_NAMES)('%j as an object key, a JSON key and a query parameter', (name) => {
    expect(redact({ outer: { [name]: VALUE } })).toEqual({ outer: { [name]: LOGGED } });
    expect(redact(`body ${JSON.stringify({ [name]: VALUE })}`)).not.toContain(VALUE);
    expect(redact(`GET https://api.example/x?${encodeURIComponent(name)}=${VALUE}`)).not.toContain(VALUE);
  });

  test('a returnUrl four deep, a JWT and a ticket under harmless names', () => {
    const logged = JSON.stringify(
      redact({
        url: `https://api.example/x?returnUrl=${encodeURIComponent(nestedReturnUrl(4, VALUE))}`,
        note: JWT,
        ref: TICKET,
      }),
    );
    for (const secret of [VALUE, JWT, TICKET]) expect(logged).not.toContain(secret);
  });
});
