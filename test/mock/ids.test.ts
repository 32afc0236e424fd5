/**
 * Record ids as the platform makes them: 24 lower-case hexadecimal characters (the spec's id
 * pattern), drawn from a pool of random bytes refilled every 341 ids, no byte used twice.
 */
import { describe, expect, test } from 'vitest';
import { newId } from '../../mock/core/ids.js';
import { ID_PATTERN } from '../../src/schemas/common.js';

describe('newId', () => {
  // 10,000 ids: the pool is refilled 29 times on the way.
  const ids = Array.from({ length: 10_000 }, () => newId());

  test('each id is 24 lower-case hexadecimal characters, matching the spec id pattern', () => {
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      expect(ID_PATTERN.test(id)).toBe(true);
    }
  });

  test('no id is made twice, across refills of the pool', () => {
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('every digit appears at every position (both halves of each byte are used)', () => {
    for (let at = 0; at < 24; at++) {
      const seen = new Set(ids.map((id) => id[at]));
      expect(seen.size, `position ${at}`).toBe(16);
    }
  });
});
