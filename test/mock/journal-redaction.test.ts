/**
 * The request journal redacts after decoding (issue: secrets written with escapes were shown as
 * sent): `client\u005fsecret` in JSON, `client%5Fsecret` in forms and queries, secrets inside
 * URL-valued parameters (a ticket inside a `returnUrl`), in JSON, form and query, and in a
 * `Referer`. One list of secret names with the SDK's logger (`src/secrets.ts`).
 */
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import {
  JOURNAL_BODY_LIMIT,
  JOURNAL_REFUSAL_LIMIT,
  JOURNAL_TEXT_BUDGET,
  Journal,
  truncationMarker,
} from '../../mock/core/journal.js';
import { REDACTED as LOGGED_REDACTED, redact } from '../../src/logger.js';
import { AccessTokenResponse } from '../../src/schemas/authorization.js';
import { LONGEST_NAME, SECRET_NAMES } from '../../src/secrets.js';
import {
  ADAPTERS,
  type Answer,
  demoCredentials,
  demoIds,
  demoShop,
  entryOf,
  expectError,
  expectOk,
  expectUnchanged,
  paths,
  READ,
  useAdapter,
} from './harness.js';
import { closedByServer, openSocket } from './raw-http.js';

const SECRET = demoCredentials.clientSecret;

describe.each(ADAPTERS)('the request journal through %s', (kind) => {
  const h = useAdapter(kind);
  const journal = () => JSON.stringify(h.platform.requests.list());

  test('client\\u005fsecret in a JSON body: the token endpoint accepts it, the journal redacts it', async () => {
    const body = `{"grant_type":"none","client_id":"${demoCredentials.clientId}","client\\u005fsecret":"${SECRET}"}`;
    const answer = await h.call(paths.accessToken, {
      host: 'auth',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expectOk(answer, AccessTokenResponse);
    expect(journal()).not.toContain(SECRET);
    expect(entryOf(h.platform, answer).body).toContain('"client\\u005fsecret":"[redacted]"');
  });

  test('client%5Fsecret in a form body: accepted, redacted', async () => {
    const body = `grant_type=none&client_id=${demoCredentials.clientId}&client%5Fsecret=${encodeURIComponent(SECRET)}`;
    const answer = await h.call(paths.accessToken, {
      host: 'auth',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectOk(answer, AccessTokenResponse);
    expect(journal()).not.toContain(SECRET);
    expect(entryOf(h.platform, answer).body).toContain('client%5Fsecret=[redacted]');
  });

  test('escaped secret names in a query: redacted in the query and in the URL', async () => {
    const answer = await h.call(paths.getProducts, {
      query: `?client%5Fsecret=${SECRET}&%61t=ticket-in-query-0123456789`,
    });
    const entry = entryOf(h.platform, answer);
    expect(journal()).not.toContain(SECRET);
    expect(journal()).not.toContain('ticket-in-query-0123456789');
    expect(entry?.query).toEqual({ client_secret: '[redacted]', at: '[redacted]' });
  });

  test('a ticket inside a returnUrl: redacted in the query, the URL and the Referer, other parameters kept', async () => {
    const ticket = h.platform.issueTicket({ accountId: demoIds.accounts.anna, clientId: demoShop.clientId });
    const returnUrl = `http://localhost:5173/back?tab=1&ticket=${ticket}`;
    const answer = await h.call('/shop/return', {
      host: 'shop',
      query: { returnUrl },
      headers: { referer: `http://localhost:5173/from?at=${ticket}&x=2` },
    });
    const entry = entryOf(h.platform, answer);
    expect(journal()).not.toContain(ticket);
    expect(entry?.query.returnUrl).toBe('http://localhost:5173/back?tab=1&ticket=[redacted]');
    expect(entry?.headers.referer).toBe('http://localhost:5173/from?at=[redacted]&x=2');
    expect(new URL(entry?.url ?? '').searchParams.get('returnUrl')).toBe(
      'http://localhost:5173/back?tab=1&ticket=[redacted]',
    );
  });

  test('a ticket inside a URL-valued JSON string and a URL-valued form field: redacted', async () => {
    const ticket = 'ticket-inside-a-url-0123456789abcdef';
    const returnUrl = `https://site.example/back?ticket=${ticket}`;
    const json = entryOf(
      h.platform,
      await h.call(paths.accessToken, { host: 'auth', json: { grant_type: 'none', returnUrl } }),
    );
    const form = entryOf(
      h.platform,
      await h.call(paths.accessToken, { host: 'auth', form: { grant_type: 'none', return_url: returnUrl } }),
    );
    expect(journal()).not.toContain(ticket);
    expect(json.body).toBe(`{"grant_type":"none","returnUrl":"https://site.example/back?ticket=[redacted]"}`);
    expect(form.body).toBe(
      `grant_type=none&return_url=${encodeURIComponent('https://site.example/back?ticket=[redacted]')}`,
    );
  });

  test('ssn, pwd and sid are redacted like every other secret name', async () => {
    await h.call(paths.validateOrder, { query: { product_code: 'premium-digital', ssn: '19800101-1234' } });
    await h.call(paths.accessToken, {
      host: 'auth',
      json: { usr: 'anna@example.com', pwd: 'pwd-secret-123', sid: 'sid-secret-456' },
    });
    const text = journal();
    for (const secret of ['19800101-1234', 'pwd-secret-123', 'sid-secret-456']) expect(text).not.toContain(secret);
    // A user name is not a secret.
    expect(text).toContain('anna@example.com');
  });

  test('a request without a token: the refusal is journalled whole, "Bearer <token>" and "token:" kept', async () => {
    const answer = await h.call(paths.getProducts);
    expect(answer.status).toBe(401);
    expect(entryOf(h.platform, answer).refusal).toEqual({
      check: 'token',
      detail: 'Missing bearer token: send Authorization: Bearer <token>',
    });
  });

  test('a malformed Authorization header: the refusal is journalled whole, the header still redacted', async () => {
    const answer = await h.call(paths.getProducts, { headers: { authorization: 'Token s3cr3t-0123456789' } });
    expect(answer.status).toBe(401);
    const entry = entryOf(h.platform, answer);
    expect(entry.refusal?.detail).toBe('Malformed Authorization header: expected Bearer <token>');
    expect(entry.headers.authorization).toBe('[redacted]');
    expect(journal()).not.toContain('s3cr3t-0123456789');
  });

  test('a secret field of a multipart body: refused, its value redacted, the other parts kept', async () => {
    const part = (disposition: string, value: string) =>
      `--bb\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n${value}\r\n`;
    const body = `${part('name="grant_type"', 'none')}${part('name="client_secret"', 'hunter2LEAK4')}${part(
      'name=password',
      'hunter2LEAK4\r\n--not-the-boundary\r\nhunter2LEAK4',
    )}--bb--`;
    const before = h.platform.snapshot();
    const answer = await h.call(paths.accessToken, {
      host: 'auth',
      body,
      headers: { 'content-type': 'multipart/form-data; boundary=bb' },
    });
    expectError(answer, 400, 'invalid_content_type_error', 'content-type');
    expect(h.platform.snapshot()).toEqual(before);
    expect(journal()).not.toContain('hunter2LEAK4');
    expect(entryOf(h.platform, answer).body).toBe(
      `${part('name="grant_type"', 'none')}${part('name="client_secret"', '[redacted]')}${part(
        'name=password',
        '[redacted]',
      )}--bb--`,
    );
  });

  test.each([
    [
      "{'grant_type': 'none', 'client_secret': 'hunter2LEAK5'}",
      "{'grant_type': 'none', 'client_secret': '[redacted]'}",
    ],
    [
      '{grant_type: "none", client_secret: "hunter2LEAK6", scope: []}',
      '{grant_type: "none", client_secret: "[redacted]", scope: []}',
    ],
  ])(
    'a JSON-like body that is not JSON (key in single quotes or bare): the secret value redacted, %s',
    async (body, shown) => {
      const before = h.platform.snapshot();
      const answer = await h.call(paths.accessToken, {
        host: 'auth',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expectError(answer, 400, 'json_parser_error', 'body');
      expect(h.platform.snapshot()).toEqual(before);
      expect(journal()).not.toMatch(/hunter2LEAK[56]/);
      expect(entryOf(h.platform, answer).body).toBe(shown);
    },
  );

  test('credentials at the start of a path that opens with // (a URL sent as a path): redacted in the URL and the path', async () => {
    const answer = await h.call('//user:hunter2pw@elsewhere.test/x');
    expect(answer.status).toBe(404);
    const entry = entryOf(h.platform, answer);
    expect(entry.path).toBe('//[redacted]@elsewhere.test/x');
    expect(entry.url).toBe(`${h.origin()}//[redacted]@elsewhere.test/x`);
    expect(journal()).not.toContain('hunter2pw');
  });

  test('a secret name=value in the path: redacted in the URL and the path, as in the refusal; the query and an ordinary path kept', async () => {
    const answer = await h.call('/nope/client_secret=MK08/more', { query: '?page=2' });
    expectError(answer, 404, 'not_found');
    const entry = entryOf(h.platform, answer);
    expect(entry.path).toBe('/nope/client_secret=[redacted]');
    expect(entry.url).toBe(`${h.origin()}/nope/client_secret=[redacted]?page=2`);
    expect(entry.refusal?.detail).toBe('No route for GET /nope/client_secret=[redacted]');
    expect(journal()).not.toContain('MK08');
    // A path of ordinary words, ids and an `=` under a harmless name is kept as it was.
    const kept = `/nope/${demoIds.accounts.anna}/view=list`;
    const plain = entryOf(h.platform, await h.call(kept));
    expect([plain.path, plain.url]).toEqual([kept, `${h.origin()}${kept}`]);
  });

  test('JSON in a query value: its secret members redacted in the query and the URL, the others and plain JSON kept', async () => {
    const answer = await h.call(paths.getProducts, {
      query: {
        x: JSON.stringify({ password: 'MK06', name: 'anna' }),
        filter: '{"name":"anna","ids":[1,2]}',
        q: '[1,2]',
      },
    });
    const entry = entryOf(h.platform, answer);
    expect(entry.query).toEqual({
      x: '{"password":"[redacted]","name":"anna"}',
      filter: '{"name":"anna","ids":[1,2]}',
      q: '[1,2]',
    });
    expect(Object.fromEntries(new URL(entry.url).searchParams)).toEqual(entry.query);
    expect(journal()).not.toContain('MK06');
  });

  test('a header holding password=... is redacted as free text; ordinary header values are kept', async () => {
    const ordinary = {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-language': 'sv-SE,sv;q=0.9,en;q=0.8',
      'cache-control': 'max-age=0',
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0',
      'x-note': 'a=1; b=two, plain words',
    };
    const answer = await h.call(paths.getProducts, {
      headers: { 'x-custom': 'password=MK18', 'x-pair': 'user=anna; token=MK19', ...ordinary },
    });
    const headers = entryOf(h.platform, answer).headers;
    expect(headers['x-custom']).toBe('password=[redacted]');
    expect(headers['x-pair']).toBe('user=anna; token=[redacted]');
    expect(headers).toMatchObject(ordinary);
    expect(journal()).not.toMatch(/MK1[89]/);
  });

  test('a secret value that is an object or an array is redacted whole', async () => {
    const answer = await h.call(paths.accessToken, {
      host: 'auth',
      json: { grant_type: 'none', password: { nested: ['deep-secret-1'] }, ticket: ['deep-secret-2'] },
    });
    expect(entryOf(h.platform, answer).body).toBe(
      '{"grant_type":"none","password":"[redacted]","ticket":"[redacted]"}',
    );
  });
});

describe('a URL fragment in the request target (a raw `#`, which fetch never sends), through http', () => {
  const h = useAdapter('http');

  test("its secret parameters are redacted in the URL, as the query's are; the rest of the URL kept", async () => {
    const socket = await openSocket(h.origin());
    const reply = closedByServer(socket);
    const target = `${paths.getProducts}?x=1#password=hunter2LEAK7&tab=2`;
    socket.write(`GET ${target} HTTP/1.1\r\nHost: ${new URL(h.origin()).host}\r\nConnection: close\r\n\r\n`);
    const id = /x-correlation-id: *([^\r\n]+)/i.exec(await reply)?.[1] ?? null;
    const entry = entryOf(h.platform, id);
    expect(JSON.stringify(h.platform.requests.list())).not.toContain('hunter2LEAK7');
    expect(entry.url).toBe(`${h.origin()}${paths.getProducts}?x=1#password=[redacted]&tab=2`);
    expect(entry.query).toEqual({ x: '1' });
  });

  test('a fragment with a secret after a redacted query: both redacted, both kept otherwise', async () => {
    const socket = await openSocket(h.origin());
    const reply = closedByServer(socket);
    const target = `${paths.getProducts}?x=1&ticket=hunter2LEAK8#access_token=hunter2LEAK9&state=s1`;
    socket.write(`GET ${target} HTTP/1.1\r\nHost: ${new URL(h.origin()).host}\r\nConnection: close\r\n\r\n`);
    const id = /x-correlation-id: *([^\r\n]+)/i.exec(await reply)?.[1] ?? null;
    expect(JSON.stringify(h.platform.requests.list())).not.toMatch(/hunter2LEAK[89]/);
    expect(entryOf(h.platform, id).url).toBe(
      `${h.origin()}${paths.getProducts}?x=1&ticket=[redacted]#access_token=[redacted]&state=s1`,
    );
  });
});

describe.each(ADAPTERS)('the journal keeps at most 64 Ki characters of a body, through %s', (kind) => {
  const h = useAdapter(kind);
  /** The body the journal kept of the request answered `answer`. */
  const body = (answer: Answer) => entryOf(h.platform, answer).body ?? '';

  test('a 1 MiB body: the first 65,536 characters, then a marker saying how much was kept', async () => {
    const head = `{"grant_type":"none","client_secret":"${SECRET}","pad":"`;
    const text = `${head}${'x'.repeat(1024 * 1024 - head.length - 2)}"}`;
    expect(new TextEncoder().encode(text).length).toBe(1024 * 1024);
    const kept = body(
      await h.call(paths.accessToken, { host: 'auth', body: text, headers: { 'content-type': 'application/json' } }),
    );
    const redacted = text.replace(SECRET, '[redacted]');
    expect(kept).toBe(
      `${redacted.slice(0, JOURNAL_BODY_LIMIT)}${truncationMarker(JOURNAL_BODY_LIMIT, redacted.length)}`,
    );
    expect(kept.startsWith('{"grant_type":"none","client_secret":"[redacted]","pad":"xxx')).toBe(true);
    expect(kept).toMatch(/…\[truncated by the journal: 65536 of \d+ characters kept\]$/);
    expect(JSON.stringify(h.platform.requests.list())).not.toContain(SECRET);
  });

  test('redaction comes first: a secret value longer than the cap is redacted whole, in JSON and in a form', async () => {
    const secret = `S${'s'.repeat(200_000)}`;
    const json = await h.call(paths.accessToken, { host: 'auth', json: { grant_type: 'none', client_secret: secret } });
    expect(body(json)).toBe('{"grant_type":"none","client_secret":"[redacted]"}');
    const form = await h.call(paths.accessToken, { host: 'auth', form: { grant_type: 'none', password: secret } });
    expect(body(form)).toBe('grant_type=none&password=[redacted]');
    expect(JSON.stringify(h.platform.requests.list())).not.toContain('Ssss');
  });

  test('a secret that the cut would split is not kept in part', async () => {
    // In the text as sent, the secret starts 10 characters before the cut.
    const secret = `TOPSECRET-${'q'.repeat(40)}`;
    const lead = '{"grant_type":"none","pad":"';
    const member = '","client_secret":"';
    const pad = 'x'.repeat(JOURNAL_BODY_LIMIT - 10 - lead.length - member.length);
    const text = `${lead}${pad}${member}${secret}"}`;
    expect(text.indexOf(secret)).toBe(JOURNAL_BODY_LIMIT - 10);
    const answer = await h.call(paths.accessToken, {
      host: 'auth',
      body: text,
      headers: { 'content-type': 'application/json' },
    });
    // Redacted, then cut: the first 10 characters of the secret would have been kept, had the cut come first.
    const redacted = `${lead}${pad}${member}[redacted]"}`;
    expect(body(answer)).toBe(
      `${redacted.slice(0, JOURNAL_BODY_LIMIT)}${truncationMarker(JOURNAL_BODY_LIMIT, redacted.length)}`,
    );
    expect(JSON.stringify(h.platform.requests.list())).not.toContain('TOPSECRET');
  });
});

describe.each(ADAPTERS)("the journal keeps at most 1 Ki characters of a refusal's detail, through %s", (kind) => {
  const h = useAdapter(kind);
  const products = (query: string, bearer: string) => h.call(paths.getProducts, { query, token: bearer });
  const token = (json: Record<string, unknown>) => h.call(paths.accessToken, { host: 'auth', json });
  const credentials = { grant_type: 'none', client_id: demoCredentials.clientId, client_secret: SECRET };

  test("a detail of 1,024 characters is kept whole; one of 1,025 keeps its first 1,024, then the marker a body's cut ends with", async () => {
    expect(JOURNAL_REFUSAL_LIMIT).toBe(1024);
    // A repeated parameter is refused naming it: its name, then the message.
    const name = 'n'.repeat(1024 - ': Parameter must not be repeated'.length);
    const bearer = h.token([READ]);
    const whole = await expectUnchanged(h.platform, () => products(`?${name}=1&${name}=2`, bearer));
    expectError(whole, 400, 'invalid_parameter', name);
    const detail = `${name}: Parameter must not be repeated`;
    expect(detail).toHaveLength(1024);
    expect(entryOf(h.platform, whole).refusal).toEqual({ check: 'invalid_parameter', detail });
    const longer = `${name}n`;
    const cut = await expectUnchanged(h.platform, () => products(`?${longer}=1&${longer}=2`, bearer));
    expectError(cut, 400, 'invalid_parameter', longer);
    const full = `${longer}: Parameter must not be repeated`;
    expect(entryOf(h.platform, cut).refusal).toEqual({
      check: 'invalid_parameter',
      detail: `${full.slice(0, 1024)}${truncationMarker(1024, 1025)}`,
    });
  });

  test('an unknown parameter named by 500,000 characters: the answer names it, the journal keeps 1,024 characters of its detail', async () => {
    const key = 'k'.repeat(500_000);
    const answer = await expectUnchanged(h.platform, () => token({ ...credentials, [key]: '' }));
    expectError(answer, 400, 'unknown_parameter', key);
    const full = `${key}: Unknown parameter: ${key}`;
    expect(entryOf(h.platform, answer).refusal).toEqual({
      check: 'unknown_parameter',
      detail: `${full.slice(0, 1024)}${truncationMarker(1024, full.length)}`,
    });
    // The body's 64 Ki characters and the detail's 1 Ki: not the million characters the refusal quoted.
    expect(JSON.stringify(h.platform.requests.list()).length).toBeLessThan(JOURNAL_BODY_LIMIT + 4 * 1024);
  });

  test('redaction comes first: a secret the cut would split is not kept in part', async () => {
    // In the detail, the secret starts 14 characters before the cut.
    const key = `${'k'.repeat(1000)} password=TOPSECRET-${'q'.repeat(40)}`;
    expect(`${key}: Unknown parameter: ${key}`.indexOf('TOPSECRET')).toBe(1024 - 14);
    const answer = await token({ ...credentials, [key]: '' });
    expectError(answer, 400, 'unknown_parameter', key);
    const { detail } = entryOf(h.platform, answer).refusal!;
    expect(detail.startsWith(`${'k'.repeat(1000)} password=[redacted]`)).toBe(true);
    expect(detail).toMatch(/…\[truncated by the journal: 1024 of \d+ characters kept\]$/);
    expect(JSON.stringify(h.platform.requests.list())).not.toContain('TOPSECRET');
  });

  test('a detail of at most 1,024 characters that redaction makes longer is cut after it, as a longer one is', async () => {
    // 983 characters as the platform words it; each `token=1` becomes `token=[redacted]`.
    const key = `x${' token=1'.repeat(60)}`;
    expect(`${key}: Unknown parameter: ${key}`.length).toBeLessThanOrEqual(1024);
    const answer = await token({ ...credentials, [key]: '' });
    expectError(answer, 400, 'unknown_parameter', key);
    const { detail } = entryOf(h.platform, answer).refusal!;
    expect(detail).toMatch(
      /^x token=\[redacted\][\s\S]{1006}…\[truncated by the journal: 1024 of \d+ characters kept\]$/,
    );
    expect(detail).not.toContain('token=1');
  });

  test('a cut that falls inside a secret redacted leaves the marker whole, read after read', async () => {
    // Redacted, the detail reads `kk…k password=[redacted] …`: `[reda` ends its first 1,024 characters.
    const key = `${'k'.repeat(1024 - ' password=[reda'.length)} password=TOPSECRET ${'z'.repeat(600)}`;
    const answer = await token({ ...credentials, [key]: '' });
    expectError(answer, 400, 'unknown_parameter', key);
    const cut = /^k{1009} password=\[reda…\[truncated by the journal: 1024 of \d+ characters kept\]$/;
    expect(entryOf(h.platform, answer).refusal!.detail).toMatch(cut);
    expect(entryOf(h.platform, answer).refusal!.detail).toMatch(cut);
  });
});

/**
 * How many characters are given to `String.prototype.normalize` (NFKC, what reading a name beyond
 * ASCII costs) while `act` runs: a count of work, the same on a loaded machine as on an idle one.
 */
function normalisedWhile(act: () => void): number {
  const normalize = String.prototype.normalize;
  let characters = 0;
  const spy = vi.spyOn(String.prototype, 'normalize').mockImplementation(function (this: string, form?: string) {
    characters += this.length;
    return normalize.call(this, form);
  });
  try {
    act();
  } finally {
    spy.mockRestore();
  }
  return characters;
}

/** A journal of one request to `https://api.platform.test/x` with this body (and these headers), read once. */
function readOnce(body: string | null, target = '/x', headers: Record<string, string> = {}) {
  const journal = new Journal(10);
  journal.open('POST', new URL(`https://api.platform.test${target}`), headers, body, Date.UTC(2030, 0, 1), 'c');
  let entry: ReturnType<Journal['list']>[number] | undefined;
  const normalised = normalisedWhile(() => {
    entry = journal.list()[0];
  });
  return { entry: entry!, normalised };
}

describe.each(ADAPTERS)("the journal's first read reads no name whole, through %s", (kind) => {
  const h = useAdapter(kind);

  test('8 MB of text/plain to log_to_accounts that is one name run on (`name=ｎａｍｅ=…`): refused, journaled, a few hundred characters read as names', async () => {
    // The body as the audit sent it, but in full-width letters past the first `name=`: every
    // character of it is beyond ASCII, so each name read is normalised, and counted.
    const body = `name=${'ｎａｍｅ='.repeat(640_000)}`;
    expect(new TextEncoder().encode(body).length).toBeGreaterThan(8_000_000);
    const answer = await h.call(paths.logToAccounts, {
      method: 'PUT',
      body,
      headers: { 'content-type': 'text/plain' },
      token: h.token(['/external/account_change_log/w']),
    });
    expect(answer.status).toBe(400);
    const before = h.platform.snapshot();
    let entry: ReturnType<typeof entryOf> | undefined;
    const normalised = normalisedWhile(() => {
      entry = entryOf(h.platform, answer);
    });
    // Before, the whole body was normalised three times over (25 million characters, 1.8 s).
    expect(normalised).toBeLessThanOrEqual(4 * LONGEST_NAME);
    expect(entry?.status).toBe(400);
    expect(entry?.body?.startsWith('name=')).toBe(true);
    expect(h.platform.snapshot()).toEqual(before);
  });
});

describe('a name longer than any the platform knows is judged by its last 256 characters', () => {
  const long = 'ｘ'.repeat(1024 * 1024);

  test.each([
    ['a form field', `${long}=1&page=2`],
    ['a multipart part', `--bb\r\nContent-Disposition: form-data; name=${long}\r\n\r\nv\r\n--bb--`],
    ['a quoted multipart part', `--bb\r\nContent-Disposition: form-data; name="${long}"\r\n\r\nv\r\n--bb--`],
    ['a JSON key', `{"${long}":1}`],
    ['a key in single quotes', `{'${long}':1}`],
    ['a bare key', `{${long}:1}`],
  ])('%s of 1 Mi characters: the body kept, at most a few names normalised', (_, body) => {
    const { entry, normalised } = readOnce(body);
    expect(normalised).toBeLessThanOrEqual(4 * LONGEST_NAME);
    expect(entry.body?.slice(0, 100)).toBe(body.slice(0, 100));
  });

  test('a query parameter and a header of such a name: kept, at most a few names normalised', () => {
    const { entry, normalised } = readOnce(null, `/x?${'y'.repeat(300)}${long}=1`, { [`x-${long}`]: 'v' });
    expect(normalised).toBeLessThanOrEqual(4 * LONGEST_NAME);
    expect(entry.query[`${'y'.repeat(300)}${long}`]).toBe('1');
    expect(entry.headers[`x-${long}`]).toBe('v');
  });

  test('one that ends as a secret name does is still redacted: in a form, a multipart part, JSON and the query', () => {
    const name = `${'ｘ'.repeat(4 * LONGEST_NAME)}_password`;
    for (const body of [
      `${name}=MK-long-1&page=2`,
      `--bb\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nMK-long-1\r\n--bb--`,
      `{"${name}":"MK-long-1"}`,
      `{'${name}':'MK-long-1'}`,
    ]) {
      const { entry } = readOnce(body, `/x?${name}=MK-long-2`);
      expect(JSON.stringify(entry)).not.toContain('MK-long');
    }
  });

  test('a ticket in a returnUrl that ends in a broken escape (`...?ticket=...%`): redacted', () => {
    // The broken escape's decoding stopped at the first `=`, so the value was judged as `https://...?ticket`.
    const { entry } = readOnce('grant_type=none&returnUrl=https://site.test/back?ticket=MK-broken-1%');
    expect(entry.body).not.toContain('MK-broken');
    expect(entry.body).toContain('grant_type=none&returnUrl=');
  });

  test('a form of broken escapes (`&a=%`, a quarter million) is read without an exception per escape', () => {
    // Each broken escape cost an exception (decodeURIComponent's URIError), thrown and caught: 30
    // times a valid escape. What it costs in time is the bench's to measure; here, the cause.
    const real = globalThis.decodeURIComponent;
    let thrown = 0;
    vi.spyOn(globalThis, 'decodeURIComponent').mockImplementation((text) => {
      try {
        return real(text);
      } catch (error) {
        thrown++;
        throw error;
      }
    });
    const body = '&a=%'.repeat(256 * 1024);
    const journal = new Journal(10);
    journal.open('POST', new URL('https://api.platform.test/x'), {}, body, 0, 'c');
    expect(journal.list()[0]!.body?.slice(0, 100)).toBe(body.slice(0, 100));
    expect(thrown).toBe(0);
  });
});

describe('the journal keeps a bounded amount of text in all', () => {
  const open = (journal: Journal, i: number, body: string) =>
    journal.open('POST', new URL(`https://api.platform.test/x${i}`), {}, body, Date.UTC(2030, 0, 1), `c${i}`);

  test('over its budget, the oldest entries go first; the newest always stays', () => {
    const journal = new Journal(1000, 10_000);
    for (let i = 0; i < 10; i++) open(journal, i, 'b'.repeat(3_000));
    const paths = journal.list().map((e) => e.path);
    expect(paths).toEqual(['/x7', '/x8', '/x9']);
    open(journal, 10, 'c'.repeat(50_000));
    expect(journal.list().map((e) => e.path)).toEqual(['/x10']);
    journal.clear();
    open(journal, 11, 'd');
    expect(journal.list().map((e) => e.path)).toEqual(['/x11']);
  });

  test("a refusal's detail counts in the budget, once the answer sets it: entries with long details keep fewer", () => {
    const journal = new Journal(1000, 10_000);
    for (let i = 0; i < 10; i++)
      open(journal, i, 'b'.repeat(2_300)).refusal = { check: 'unknown_parameter', detail: 'k'.repeat(950) };
    // About 3,300 characters each (2,300 of body, 2 x 28 of URL, 950 of detail): the newest three
    // fit in 10,000; without their details, four would.
    expect(journal.list().map((e) => e.path)).toEqual(['/x7', '/x8', '/x9']);
    // A detail set again replaces the first in the count: a short one after a long one (cut to 1,024).
    const entry = open(journal, 10, 'b');
    entry.refusal = { check: 'unknown_parameter', detail: 'k'.repeat(100_000) };
    entry.refusal = { check: 'unknown_parameter', detail: 'short' };
    open(journal, 11, 'b');
    expect(journal.list().map((e) => e.path)).toEqual(['/x8', '/x9', '/x10', '/x11']);
  });

  test('the default budget is 16 Mi characters: 300 full-size bodies keep about 250 entries', () => {
    expect(JOURNAL_TEXT_BUDGET).toBe(16 * 1024 * 1024);
    const journal = new Journal(1000);
    const big = 'e'.repeat(JOURNAL_BODY_LIMIT + 100);
    for (let i = 0; i < 300; i++) open(journal, i, big);
    const list = journal.list();
    expect(list.length).toBeLessThan(256);
    expect(list.length).toBeGreaterThan(240);
    expect(list.at(-1)?.path).toBe('/x299');
    expect(list.every((e) => (e.body ?? '').length < JOURNAL_BODY_LIMIT + 100)).toBe(true);
  });
});

describe('the journal keeps the newest entries within both bounds, at any length', () => {
  // The model: every entry opened, then the newest `limit` of them, then the newest that fit in the
  // budget (the newest always kept, its body only as its length when it is over the budget alone,
  // if that is shorter). Sizes as the journal counts them before redaction.
  const sizeOf = (i: number, body: string) => 2 * `https://api.platform.test/x${i}`.length + body.length;

  test('equals a model that keeps the newest entries (limits, budgets, reads in between, clear)', () => {
    const op = fc.oneof(
      { arbitrary: fc.nat({ max: 400 }).map((n) => ({ kind: 'open' as const, size: n })), weight: 20 },
      { arbitrary: fc.constant({ kind: 'list' as const }), weight: 3 },
      { arbitrary: fc.constant({ kind: 'clear' as const }), weight: 1 },
    );
    fc.assert(
      fc.property(
        fc.nat({ max: 8 }),
        fc.integer({ min: 1, max: 2_000 }),
        fc.array(op, { maxLength: 300 }),
        (limit, budget, ops) => {
          const journal = new Journal(limit, budget);
          let model: { i: number; size: number }[] = [];
          let i = 0;
          for (const o of ops) {
            if (o.kind === 'clear') {
              journal.clear();
              model = [];
            } else if (o.kind === 'list') {
              // Reading redacts and recounts each size; these bodies and URLs have nothing to redact.
              const listed = journal.list();
              expect(listed.map((e) => e.path)).toEqual(model.map((m) => `/x${m.i}`));
              expect(listed.map((e) => e.status)).toEqual(model.map((m) => m.i));
            } else {
              const body = 'b'.repeat(o.size);
              const entry = journal.open('POST', new URL(`https://api.platform.test/x${i}`), {}, body, 0, `c${i}`);
              entry.status = i;
              if (limit > 0) {
                model.push({ i, size: sizeOf(i, body) });
                if (model.length > limit) model = model.slice(-limit);
                let total = model.reduce((a, m) => a + m.size, 0);
                while (model.length > 1 && total > budget) total -= model.shift()!.size;
                const marker = truncationMarker(0, body.length);
                if (total > budget && body.length > marker.length) model[0]!.size = sizeOf(i, marker);
              }
              i++;
            }
          }
          expect(journal.list().map((e) => `${e.path} ${e.status}`)).toEqual(model.map((m) => `/x${m.i} ${m.i}`));
        },
      ),
      { numRuns: 300 },
    );
  });

  test('100,000 requests through a 1000-entry journal keep the last 1000', () => {
    const journal = new Journal(1000);
    for (let i = 0; i < 100_000; i++)
      journal.open('GET', new URL(`https://api.platform.test/x${i}`), {}, null, 0, `c${i}`).status = 200;
    const list = journal.list();
    expect(list).toHaveLength(1000);
    expect(list[0]?.path).toBe('/x99000');
    expect(list.at(-1)?.path).toBe('/x99999');
  });
});

describe('one list of secret names for the SDK logger and the platform journal', () => {
  test('every secret name is redacted by both, as a JSON key, a query parameter and an object key', async () => {
    const { createPlatform } = await import('../../mock/index.js');
    const platform = createPlatform();
    for (const name of SECRET_NAMES) {
      const value = `value-of-${name}-0123456789`;
      await platform.handle(
        new Request(`https://auth.platform.test${paths.accessToken}?${name}=${value}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ [name]: value }),
        }),
      );
      expect(redact({ [name]: value })).toEqual({ [name]: LOGGED_REDACTED });
      expect(redact(`https://x.test/?${name}=${value}`)).toBe(`https://x.test/?${name}=${LOGGED_REDACTED}`);
      expect(redact(JSON.stringify({ [name]: value }))).toBe(JSON.stringify({ [name]: LOGGED_REDACTED }));
      expect(JSON.stringify(platform.requests.list())).not.toContain(value);
    }
  });

  test('the logger also decodes: escaped names, percent-escaped names, tickets inside URL values', () => {
    expect(redact('{"client\\u005fsecret":"s3cr3t"}')).toBe('{"client\\u005fsecret":"[REDACTED]"}');
    expect(redact('grant_type=none&client%5Fsecret=s3cr3t')).toBe('grant_type=none&client%5Fsecret=[REDACTED]');
    const url = `https://shop.test/return?returnUrl=${encodeURIComponent('https://site.test/back?ticket=TKT')}`;
    expect(redact(url)).toBe(
      `https://shop.test/return?returnUrl=${encodeURIComponent('https://site.test/back?ticket=[REDACTED]')}`,
    );
    expect(redact({ returnUrl: 'https://site.test/back?x=1&ticket=TKT' })).toEqual({
      returnUrl: 'https://site.test/back?x=1&ticket=[REDACTED]',
    });
    expect(redact({ ssn: '19800101-1234', pwd: 'p', sid: 's', usr: 'anna@example.com' })).toEqual({
      ssn: '[REDACTED]',
      pwd: '[REDACTED]',
      sid: '[REDACTED]',
      usr: 'anna@example.com',
    });
  });
});
