/**
 * The request journal redacts after decoding (issue: secrets written with escapes were shown as
 * sent): `client\u005fsecret` in JSON, `client%5Fsecret` in forms and queries, secrets inside
 * URL-valued parameters (a ticket inside a `returnUrl`), in JSON, form and query, and in a
 * `Referer`. One list of secret names with the SDK's logger (`src/secrets.ts`).
 */
import { describe, expect, test } from 'vitest';
import { REDACTED as LOGGED_REDACTED, redact } from '../../src/logger.js';
import { AccessTokenResponse } from '../../src/schemas/authorization.js';
import { SECRET_NAMES } from '../../src/secrets.js';
import { ADAPTERS, demoCredentials, demoIds, demoShop, expectOk, paths, useAdapter } from './harness.js';

const SECRET = demoCredentials.clientSecret;

describe.each(ADAPTERS)('the request journal through %s', (kind) => {
  const h = useAdapter(kind);
  const journal = () => JSON.stringify(h.platform.requests.list());

  test('client\\u005fsecret in a JSON body: the token endpoint accepts it, the journal redacts it', async () => {
    const body = `{"grant_type":"none","client_id":"${demoCredentials.clientId}","client\\u005fsecret":"${SECRET}"}`;
    const answer = await h.call(paths.token, { host: 'auth', body, headers: { 'content-type': 'application/json' } });
    expectOk(answer, AccessTokenResponse);
    expect(journal()).not.toContain(SECRET);
    expect(h.platform.requests.list()[0]?.body).toContain('"client\\u005fsecret":"[redacted]"');
  });

  test('client%5Fsecret in a form body: accepted, redacted', async () => {
    const body = `grant_type=none&client_id=${demoCredentials.clientId}&client%5Fsecret=${encodeURIComponent(SECRET)}`;
    const answer = await h.call(paths.token, {
      host: 'auth',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectOk(answer, AccessTokenResponse);
    expect(journal()).not.toContain(SECRET);
    expect(h.platform.requests.list()[0]?.body).toContain('client%5Fsecret=[redacted]');
  });

  test('escaped secret names in a query: redacted in the query and in the URL', async () => {
    await h.call(paths.products, { query: `?client%5Fsecret=${SECRET}&%61t=ticket-in-query-0123456789` });
    const [entry] = h.platform.requests.list();
    expect(journal()).not.toContain(SECRET);
    expect(journal()).not.toContain('ticket-in-query-0123456789');
    expect(entry?.query).toEqual({ client_secret: '[redacted]', at: '[redacted]' });
  });

  test('a ticket inside a returnUrl: redacted in the query, the URL and the Referer, other parameters kept', async () => {
    const ticket = h.platform.issueTicket({ accountId: demoIds.accounts.anna, clientId: demoShop.clientId });
    const returnUrl = `http://localhost:5173/back?tab=1&ticket=${ticket}`;
    await h.call('/shop/return', {
      host: 'shop',
      query: { returnUrl },
      headers: { referer: `http://localhost:5173/from?at=${ticket}&x=2` },
    });
    const [entry] = h.platform.requests.list();
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
    await h.call(paths.token, { host: 'auth', json: { grant_type: 'none', returnUrl } });
    await h.call(paths.token, { host: 'auth', form: { grant_type: 'none', return_url: returnUrl } });
    expect(journal()).not.toContain(ticket);
    const [json, form] = h.platform.requests.list();
    expect(json?.body).toBe(`{"grant_type":"none","returnUrl":"https://site.example/back?ticket=[redacted]"}`);
    expect(form?.body).toBe(
      `grant_type=none&return_url=${encodeURIComponent('https://site.example/back?ticket=[redacted]')}`,
    );
  });

  test('ssn, pwd and sid are redacted like every other secret name', async () => {
    await h.call(paths.orderValidation, { query: { product_code: 'premium-digital', ssn: '19800101-1234' } });
    await h.call(paths.token, {
      host: 'auth',
      json: { usr: 'anna@example.com', pwd: 'pwd-secret-123', sid: 'sid-secret-456' },
    });
    const text = journal();
    for (const secret of ['19800101-1234', 'pwd-secret-123', 'sid-secret-456']) expect(text).not.toContain(secret);
    // A user name is not a secret.
    expect(text).toContain('anna@example.com');
  });

  test('a secret value that is an object or an array is redacted whole', async () => {
    await h.call(paths.token, {
      host: 'auth',
      json: { grant_type: 'none', password: { nested: ['deep-secret-1'] }, ticket: ['deep-secret-2'] },
    });
    expect(h.platform.requests.list()[0]?.body).toBe(
      '{"grant_type":"none","password":"[redacted]","ticket":"[redacted]"}',
    );
  });
});

describe('one list of secret names for the SDK logger and the platform journal', () => {
  test('every secret name is redacted by both, as a JSON key, a query parameter and an object key', async () => {
    const { createPlatform } = await import('../../mock/index.js');
    const platform = createPlatform();
    for (const name of SECRET_NAMES) {
      const value = `value-of-${name}-0123456789`;
      await platform.handle(
        new Request(`https://auth.platform.test${paths.token}?${name}=${value}`, {
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
