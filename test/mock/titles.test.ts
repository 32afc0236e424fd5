/**
 * The titles API beyond the spec (the platform's public documentation), through both adapters: the
 * organisation's titles, and one by its code. Every refusal changes nothing.
 */
import { describe, expect, test } from 'vitest';
import * as e from '../../src/endpoints.js';
import { FindTitleResponse, ListTitlesResponse } from '../../src/schemas/titles.js';
import { ADAPTERS, expectError, expectOk, expectUnchanged, useAdapter } from './harness.js';

const path = {
  titles: e.pathOf(e.listTitles, 'stage'),
  title: e.pathOf(e.findTitle, 'stage'),
};

describe.each(ADAPTERS)('the titles API through %s', (kind) => {
  const h = useAdapter(kind);
  const token = () => h.token(['/external/title/r']);

  test("the organisation's titles by code; another organisation's are not there", async () => {
    const { items } = expectOk(await h.call(path.titles, { token: token() }), ListTitlesResponse);
    expect(items.map((t) => t.code)).toEqual(['DAILY', 'EPAPER']);
    expect(items[0]).toEqual({
      name: 'Demo Daily',
      code: 'DAILY',
      image_url: 'https://media.example/titles/daily.png',
      merchant_image_url: 'https://media.example/titles/daily-merchant.png',
      url: 'https://daily.example',
      rgb: '#1a4d8f',
    });
  });

  test('find_one by title_code', async () => {
    const { item } = expectOk(
      await h.call(path.title, { query: { title_code: 'EPAPER' }, token: token() }),
      FindTitleResponse,
    );
    expect(item).toMatchObject({ code: 'EPAPER', merchant_image_url: null });
  });

  test.each([
    ["another organisation's title", { title_code: 'COMPLEX' }, 404, 'not_found', 'title_code'],
    ['an unknown code', { title_code: 'NOPE' }, 404, 'not_found', 'title_code'],
    ['no title_code', {}, 400, 'invalid_parameter', 'title_code'],
    ['a code in other letter case (codes match exactly)', { title_code: 'daily' }, 404, 'not_found', 'title_code'],
    ['a title_code of 1025 characters', { title_code: 'T'.repeat(1025) }, 400, 'invalid_parameter', 'title_code'],
    ['an unknown parameter', { title_code: 'DAILY', x: '1' }, 400, 'unknown_parameter', 'x'],
  ])('%s: %s %s; nothing changes', async (_, query, status, code, field) => {
    const t = token();
    expectError(await expectUnchanged(h.platform, () => h.call(path.title, { query, token: t })), status, code, field);
  });

  test('a parameter on the list, or no scope: refused', async () => {
    expectError(
      await h.call(path.titles, { query: { code: 'DAILY' }, token: token() }),
      400,
      'unknown_parameter',
      'code',
    );
    expectError(await h.call(path.titles, { token: h.token(['/external/product/r']) }), 403, 'insufficient_scope');
  });
});
