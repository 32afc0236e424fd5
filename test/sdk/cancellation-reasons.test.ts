/** Cancellation reasons (endpoint 14) through the SDK, in process: the list, one reason, and the answer typed by the query. */
import { describe, expect, expectTypeOf, test } from 'vitest';
import { getCancellationReason, responseSchemaOf } from '../../src/endpoints.js';
import { RequestValidationError } from '../../src/index.js';
import type { ResultOf } from '../../src/request.js';
import {
  CancellationReasonResponse,
  CancellationReasonsResponse,
  type GetCancellationReasonQuery,
} from '../../src/schemas/cancellation-reasons.js';
import { client, demoIds, received, scopesOf, usePlatform } from './helpers.js';

usePlatform();

const sdk = () => client({}, scopesOf(getCancellationReason));

describe('cancellation reasons', () => {
  test('list: ordered by index; internal ones only when asked', async () => {
    const { items } = await sdk().cancellationReasons.list();
    expect(items.map((r) => r.index)).toEqual([1, 2, 3, 6]);
    const all = await sdk().cancellationReasons.list({ include_internal: true });
    expect(all.items.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('retrieve: { item }, typed as one reason', async () => {
    const { item } = await sdk().cancellationReasons.retrieve(demoIds.cancellationReasons.tooExpensive);
    expect(item.code).toBe('too_expensive');
  });

  test('retrieve without an id: RequestValidationError naming id, and no list asked for', async () => {
    await expect(sdk().cancellationReasons.retrieve(undefined as never)).rejects.toMatchObject({
      constructor: RequestValidationError,
      field: 'id',
    });
    expect(received()).toEqual([]);
  });

  test('the entry types the answer by the query: with id { item }, without { items }, either when undecided', () => {
    type Result<Q> = ResultOf<typeof getCancellationReason, Q>;
    expectTypeOf<Result<{ id: string }>>().toEqualTypeOf<CancellationReasonResponse>();
    expectTypeOf<Result<{ include_internal: true }>>().toEqualTypeOf<CancellationReasonsResponse>();
    expectTypeOf<Result<undefined>>().toEqualTypeOf<CancellationReasonsResponse>();
    expectTypeOf<Result<GetCancellationReasonQuery>>().toEqualTypeOf<
      CancellationReasonResponse | CancellationReasonsResponse
    >();
    expect(responseSchemaOf(getCancellationReason, { id: demoIds.cancellationReasons.tooExpensive })).toBe(
      CancellationReasonResponse,
    );
    expect(responseSchemaOf(getCancellationReason, {})).toBe(CancellationReasonsResponse);
  });

  test('list(params): "with `id`, `{ item }`; otherwise `{ items }`", typed by the params given, a variable too', async () => {
    const reasons = sdk().cancellationReasons;
    const id = demoIds.cancellationReasons.tooExpensive;
    // A variable's type is not checked for keys it should not have: its `id` is sent all the same.
    const withId = { id, include_internal: true };
    const one = await reasons.list(withId);
    expectTypeOf(one).toEqualTypeOf<CancellationReasonResponse>();
    expect(one.item.code).toBe('too_expensive');
    const maybe = { include_internal: true } as { id?: string; include_internal: boolean };
    expectTypeOf(await reasons.list(maybe)).toEqualTypeOf<CancellationReasonResponse | CancellationReasonsResponse>();
    const wider: Record<string, string | boolean> = { include_internal: true };
    expectTypeOf(reasons.list).toBeCallableWith(wider);
    expectTypeOf(await reasons.list(wider)).toEqualTypeOf<CancellationReasonResponse | CancellationReasonsResponse>();
    const without = { include_internal: true };
    expectTypeOf(await reasons.list(without)).toEqualTypeOf<CancellationReasonsResponse>();
    expectTypeOf(await reasons.list()).toEqualTypeOf<CancellationReasonsResponse>();
    expectTypeOf(await reasons.list({ visible_to_end_customer: true })).toEqualTypeOf<CancellationReasonsResponse>();
  });
});
