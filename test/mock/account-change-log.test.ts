/**
 * Log to accounts (endpoint 4, 207) and its available categories, through both adapters with
 * plain fetch.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { bodyLimitFor, DEFAULT_MAX_BODY_BYTES } from '../../mock/core/limits.js';
import { createPlatform, defaultHosts } from '../../mock/index.js';
import { AvailableCategoriesResponse, LogToAccountsResponse } from '../../src/schemas/account-change-log.js';
import { ADAPTERS, absent, demoIds, expectError, expectOk, expectUnchanged, paths, useAdapter } from './harness.js';

const SCOPE = '/external/account_change_log/w';
const { anna, bo, dora, frank, kai } = demoIds.accounts;

const entry = (account_id: string, message = 'Moved to a new address') => ({
  account_id,
  category_type: 'address_change',
  message,
  requested_by: 'customer service',
});

/** How the platform answers Frank's (archived) entry: the payload with its own keys, `cateogory` (sic) included. */
const frankRefused = (now: string) => ({
  payload: {
    account_id: frank,
    created_at: now,
    message: 'Moved to a new address',
    cateogory: 'address_change',
    requested_by: 'customer service',
  },
  error_message: 'The account is archived',
});

describe.each(ADAPTERS)('account change log through %s', (kind) => {
  const h = useAdapter(kind);
  let token: string;
  beforeEach(() => {
    token = h.token([SCOPE]);
  });
  const log = (json: unknown) => h.call(paths.logToAccounts, { method: 'PUT', json, token });
  const logs = () => h.platform.snapshot().account_change_logs;

  describe('available categories', () => {
    test("the organisation's categories: category_type and name, in the document's order", async () => {
      const { items } = expectOk(await h.call(paths.getAvailableCategories, { token }), AvailableCategoriesResponse);
      expect(items).toEqual([
        { category_type: 'address_change', name: 'Address change' },
        { category_type: 'customer_contact', name: 'Customer contact' },
        { category_type: 'complaint', name: 'Complaint' },
      ]);
    });

    test("another organisation's client reads its own", async () => {
      const complex = h.token([SCOPE], demoIds.clients.complex.clientId);
      const { items } = expectOk(
        await h.call(paths.getAvailableCategories, { token: complex }),
        AvailableCategoriesResponse,
      );
      expect(items.map((c) => c.category_type)).toEqual(['note']);
    });

    test('it needs the scope of endpoint 4: 403 insufficient_scope otherwise', async () => {
      expectError(
        await h.call(paths.getAvailableCategories, { token: h.token(['/external/product/r']) }),
        403,
        'insufficient_scope',
      );
    });
  });

  describe('4. log to accounts', () => {
    test('207 { ok, errors }: every entry logged, ok lists one account per entry in request order', async () => {
      const answer = await log({ change_logs: [entry(bo), entry(anna), entry(bo, 'Second note')] });
      const body = expectOk(answer, LogToAccountsResponse, 207);
      expect(body).toEqual({ ok: [bo, anna, bo], errors: [] });
      expect(logs().map((l) => [l.account_id, l.message, l.category_type, l.requested_by])).toEqual([
        [bo, 'Moved to a new address', 'address_change', 'customer service'],
        [anna, 'Moved to a new address', 'address_change', 'customer service'],
        [bo, 'Second note', 'address_change', 'customer service'],
      ]);
    });

    test('partial success: an archived account and an account of another organisation are refused entry by entry', async () => {
      h.platform.clock.freeze();
      const now = h.platform.clock.now().toISOString();
      const unknown = absent.account;
      const answer = await log({ change_logs: [entry(frank), entry(anna), entry(dora), entry(unknown)] });
      const body = expectOk(answer, LogToAccountsResponse, 207);
      expect(body.ok).toEqual([anna]);
      expect(body.errors).toEqual([
        frankRefused(now),
        expect.objectContaining({
          payload: expect.objectContaining({ account_id: dora }),
          error_message: 'The account does not belong to the organisation',
        }),
        expect.objectContaining({
          payload: expect.objectContaining({ account_id: unknown }),
          error_message: 'The account does not belong to the organisation',
        }),
      ]);
      expect(logs().map((l) => l.account_id)).toEqual([anna]);
    });

    test('every entry refused is still a 207, and logs nothing', async () => {
      h.platform.clock.freeze();
      const now = h.platform.clock.now().toISOString();
      const answer = await expectUnchanged(h.platform, () => log({ change_logs: [entry(frank), entry(kai)] }));
      const body = expectOk(answer, LogToAccountsResponse, 207);
      expect(body.ok).toEqual([]);
      // The platform's keys exactly: the category under `cateogory` (sic), no `category_type`.
      for (const error of body.errors)
        expect(Object.keys(error.payload).sort()).toEqual([
          'account_id',
          'cateogory',
          'created_at',
          'message',
          'requested_by',
        ]);
      expect(body.errors).toEqual([
        frankRefused(now),
        {
          payload: {
            account_id: kai,
            created_at: now,
            message: 'Moved to a new address',
            cateogory: 'address_change',
            requested_by: 'customer service',
          },
          // Kai is archived, but of another organisation: that is what the caller may know.
          error_message: 'The account does not belong to the organisation',
        },
      ]);
    });

    test("another organisation's client: its archived account refused as archived, ours as not of its organisation", async () => {
      token = h.token([SCOPE], demoIds.clients.complex.clientId);
      const note = (account_id: string) => ({ ...entry(account_id), category_type: 'note' });
      const body = expectOk(
        await log({ change_logs: [note(kai), note(dora), note(anna)] }),
        LogToAccountsResponse,
        207,
      );
      expect(body.ok).toEqual([dora]);
      expect(body.errors.map((e) => [e.payload.account_id, e.error_message])).toEqual([
        [kai, 'The account is archived'],
        [anna, 'The account does not belong to the organisation'],
      ]);
      expect(logs().map((l) => [l.account_id, l.category_type])).toEqual([[dora, 'note']]);
    });

    test('1000 entries are accepted', async () => {
      const answer = await log({ change_logs: Array.from({ length: 1000 }, () => entry(anna)) });
      expect(expectOk(answer, LogToAccountsResponse, 207).ok).toHaveLength(1000);
    });

    /** An entry with the longest message (1,024) and `requested_by` (100) the spec allows, of `char`. */
    const longest = (char: string) => ({
      ...entry(anna, char.repeat(1024)),
      requested_by: char.repeat(100),
    });

    test('the largest batch the spec allows is accepted: 1000 entries of the longest message and requested_by (1.23 MB, over the 1 MiB default limit)', async () => {
      const json = { change_logs: Array.from({ length: 1000 }, () => longest('m')) };
      expect(JSON.stringify(json).length).toBeGreaterThan(1024 * 1024);
      const answer = await log(json);
      expect(expectOk(answer, LogToAccountsResponse, 207).ok).toHaveLength(1000);
    });

    test('the largest batch the spec allows, to the path with a trailing slash (the same route): 207, its limit the same', async () => {
      expect(bodyLimitFor(DEFAULT_MAX_BODY_BYTES, 'PUT', `${paths.logToAccounts}/?x=1`)).toBe(
        bodyLimitFor(DEFAULT_MAX_BODY_BYTES, 'PUT', paths.logToAccounts),
      );
      const before = logs().length;
      const json = { change_logs: Array.from({ length: 1000 }, () => longest('m')) };
      const answer = await h.call(`${paths.logToAccounts}/`, { method: 'PUT', json, token });
      expect(expectOk(answer, LogToAccountsResponse, 207).ok).toHaveLength(1000);
      expect(logs().length).toBe(before + 1000);
    });

    /** `text` as JSON with every character escaped: a character beyond the BMP as a surrogate pair, 12 bytes. */
    const escapedJson = (text: string) =>
      `"${Array.from({ length: text.length }, (_, i) => `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;
    /** A body of `count` entries as JSON without white space, every key and every character escaped. */
    const escapedBody = (count: number, fields: Record<string, string>) => {
      const members = Object.entries(fields).map(([key, value]) => `${escapedJson(key)}:${escapedJson(value)}`);
      const one = `{${members.join(',')}}`;
      return `{${escapedJson('change_logs')}:[${Array.from({ length: count }, () => one).join(',')}]}`;
    };
    const send = (body: string) =>
      h.call(paths.logToAccounts, { method: 'PUT', body, headers: { 'content-type': 'application/json' }, token });
    const beyondBmp = '\u{1F600}';
    const limit = bodyLimitFor(DEFAULT_MAX_BODY_BYTES, 'PUT', paths.logToAccounts);

    test('the largest valid batch, every character beyond the BMP and escaped as a surrogate pair (13.6 MB), is accepted: 207', async () => {
      const body = escapedBody(1000, {
        account_id: anna,
        category_type: 'complaint',
        message: beyondBmp.repeat(1024),
        requested_by: beyondBmp.repeat(100),
      });
      expect(Buffer.byteLength(body)).toBeGreaterThan(13_500_000);
      const answer = await send(body);
      expect(expectOk(answer, LogToAccountsResponse, 207).ok).toHaveLength(1000);
      expect(logs().at(-1)?.message).toBe(beyondBmp.repeat(1024));
    });

    test('1001 of the longest entries, every key and character escaped and each character of the texts beyond the BMP, reach the count rule: 400 invalid_parameter change_logs, not 413; they fill the limit exactly', async () => {
      const body = escapedBody(1001, {
        account_id: anna,
        category_type: beyondBmp.repeat(100),
        message: beyondBmp.repeat(1024),
        requested_by: beyondBmp.repeat(100),
      });
      expect(Buffer.byteLength(body)).toBe(limit);
      const answer = await expectUnchanged(h.platform, () => send(body));
      expectError(answer, 400, 'invalid_parameter', 'change_logs');
      // One byte more (a space between tokens) is over the limit.
      const over = await expectUnchanged(h.platform, () => send(`${body} `));
      expectError(over, 413, 'payload_too_large', 'body');
    });

    test(`a body over its own limit (${limit} bytes): 413 payload_too_large body, nothing logged`, async () => {
      const json = { change_logs: [entry(anna, 'x'.repeat(limit))] };
      const answer = await expectUnchanged(h.platform, () => log(json));
      expectError(answer, 413, 'payload_too_large', 'body');
    });

    test.each([
      ['no entries', { change_logs: [] }, 'change_logs'],
      ['1001 entries', { change_logs: Array.from({ length: 1001 }, () => entry(anna)) }, 'change_logs'],
      [
        'a category that is not available',
        { change_logs: [entry(anna), { ...entry(bo), category_type: 'gossip' }] },
        'change_logs[1].category_type',
      ],
      [
        "another organisation's category",
        { change_logs: [{ ...entry(anna), category_type: 'note' }] },
        'change_logs[0].category_type',
      ],
      ['a message of 1025 characters', { change_logs: [entry(anna, 'x'.repeat(1025))] }, 'change_logs[0].message'],
      ['an empty message', { change_logs: [entry(anna, '')] }, 'change_logs[0].message'],
      [
        'requested_by of 101 characters',
        { change_logs: [{ ...entry(anna), requested_by: 'r'.repeat(101) }] },
        'change_logs[0].requested_by',
      ],
      ['a malformed account id', { change_logs: [entry('not-an-id')] }, 'change_logs[0].account_id'],
      ['a missing field', { change_logs: [{ ...entry(anna), message: undefined }] }, 'change_logs[0].message'],
    ])('the whole request is refused for %s: 400 invalid_parameter, nothing logged', async (_, json, field) => {
      const answer = await expectUnchanged(h.platform, () => log(json));
      expectError(answer, 400, 'invalid_parameter', field);
    });

    test('an unknown field of an entry: 400 unknown_parameter naming it', async () => {
      const answer = await expectUnchanged(h.platform, () => log({ change_logs: [{ ...entry(anna), urgent: true }] }));
      expectError(answer, 400, 'unknown_parameter', 'change_logs[0].urgent');
    });
  });
});

describe('the body limit of endpoint 4 under a base path', () => {
  test('a platform under /tenant-a takes the largest batch the spec allows there too: 207', async () => {
    const platform = createPlatform({ basePath: '/tenant-a' });
    const token = platform.mintToken({ scopes: [SCOPE] }).access_token;
    const change_logs = Array.from({ length: 1000 }, () => ({
      ...entry(anna, 'm'.repeat(1024)),
      requested_by: 'r'.repeat(100),
    }));
    const answer = await platform.handle(
      new Request(`${defaultHosts.api}/tenant-a${paths.logToAccounts}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ change_logs }),
      }),
    );
    expect(answer.status, await answer.clone().text()).toBe(207);
  });
});
