/**
 * The shared rules of src/schemas, each written once and read by both halves: the limits of the
 * spec's tables, "exactly one of", and which issue a refusal reports.
 */
import { describe, expect, test } from 'vitest';
import { createPlatform } from '../mock/index.js';
import { AccessTokenRequest, GenerateTicketRequest } from '../src/schemas/authorization.js';
import { ERROR_CODES, platformErrorMap, primaryIssue, refusalCodeOf } from '../src/schemas/common.js';
import { RetentionRequest } from '../src/schemas/me-retention.js';

/** The field and code a refusal of `input` reports, as the platform's 400 and the SDK's error do. */
function refusal(schema: { safeParse: (input: unknown, params?: object) => unknown }, input: unknown) {
  const result = schema.safeParse(input, { error: platformErrorMap }) as {
    success: boolean;
    error?: { issues: Parameters<typeof primaryIssue>[0] };
  };
  if (result.success) return 'accepted';
  const issue = primaryIssue(result.error!.issues)!;
  const field = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path.join('.');
  return { code: refusalCodeOf(issue, input), field, message: issue.message };
}

describe('user_product_id and order_id (endpoints 6 and 7): up to 1024 characters, exactly one', () => {
  test.each(['user_product_id', 'order_id'])('%s of 1024 characters is accepted, 1025 refused naming it', (key) => {
    expect(refusal(RetentionRequest, { [key]: 'x'.repeat(1024) })).toBe('accepted');
    expect(refusal(RetentionRequest, { [key]: 'x'.repeat(1025) })).toEqual({
      code: 'invalid_parameter',
      field: key,
      message: 'Parameter size must be at most 1024',
    });
  });

  test('none, or both: refused naming the first, or the second', () => {
    expect(refusal(RetentionRequest, {})).toMatchObject({
      field: 'user_product_id',
      message: 'One of user_product_id or order_id is required',
    });
    expect(refusal(RetentionRequest, { user_product_id: 'a', order_id: 'b' })).toMatchObject({
      field: 'order_id',
      message: 'Only one of user_product_id or order_id may be given',
    });
  });

  test("a user-product's order id in the state document: 1024 characters load, 1025 are refused", () => {
    const platform = createPlatform();
    const doc = platform.snapshot();
    // The user-product's order id names its order: both change together.
    const order = doc.orders.find((o) => o.id === doc.user_products[0]!.order_id)!;
    const withOrderId = (id: string) => {
      doc.user_products[0]!.order_id = id;
      order.id = id;
      return doc;
    };
    platform.restore(withOrderId('o'.repeat(1024)));
    expect(() => platform.restore(withOrderId('o'.repeat(1025)))).toThrow(
      expect.objectContaining({ field: 'user_products[0].order_id' }),
    );
    expect(platform.snapshot().user_products[0]!.order_id).toBe('o'.repeat(1024));
  });
});

describe('which issue a refusal reports', () => {
  test("a union reports from the branch that fits best (endpoint 22's forms): the broken field, not the body", () => {
    expect(refusal(GenerateTicketRequest, { accountId: 'not-an-id', clientId: 'shop' })).toMatchObject({
      code: 'invalid_parameter',
      field: 'accountId',
    });
    expect(refusal(GenerateTicketRequest, { client_id: '' })).toMatchObject({ field: 'client_id' });
  });

  test('an unknown key first, whatever else is wrong', () => {
    expect(refusal(GenerateTicketRequest, { client_id: 'shop', extra: 1 })).toMatchObject({
      code: 'unknown_parameter',
      field: 'extra',
    });
  });

  test('endpoint 23: a grant_type not served is unsupported_grant_type; a missing one is invalid_parameter', () => {
    expect(refusal(AccessTokenRequest, { grant_type: 'password', client_id: 'a', client_secret: 'b' })).toEqual({
      code: 'unsupported_grant_type',
      field: 'grant_type',
      message: 'Parameter must be one of: none, ticket, refresh_token',
    });
    expect(refusal(AccessTokenRequest, { client_id: 'a', client_secret: 'b' })).toEqual({
      code: 'invalid_parameter',
      field: 'grant_type',
      message: 'Parameter is required',
    });
  });
});

describe('ERROR_CODES', () => {
  test('lists every code the platform refuses with, so `switch (err.code)` covers them all', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const root = new URL('../mock/', import.meta.url);
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.ts'));
    const thrown = new Set<string>();
    for (const file of files) {
      const text = await readFile(new URL(file, root), 'utf8');
      for (const m of text.matchAll(/new HttpError\(\s*\d+,\s*'([a-z_]+)'/g)) thrown.add(m[1] as string);
    }
    expect(thrown.size).toBeGreaterThan(20);
    const known: readonly string[] = ERROR_CODES;
    expect([...thrown].filter((code) => !known.includes(code))).toEqual([]);
  });
});
