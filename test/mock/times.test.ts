/**
 * A record's time (a token's expiry, a product's window) is parsed once per text and kept: what it
 * answers is always what `Date.parse` answers for that text, however many texts came before.
 */
import { expect, test } from 'vitest';
import { timeMs } from '../../mock/core/clock.js';

test('timeMs answers Date.parse for every text, an invalid one included (NaN, which no time is before or after)', () => {
  const texts = ['2020-01-01T00:00:00Z', '2999-12-31T23:59:59Z', '2024-02-29T12:00:00.250+02:00', 'not a date', ''];
  for (const text of texts) {
    expect(timeMs(text)).toBe(Date.parse(text));
    // Asked again, from what it kept.
    expect(timeMs(text)).toBe(Date.parse(text));
  }
});

test('past the texts it keeps it starts over, and still answers each one right', () => {
  const base = Date.parse('2030-01-01T00:00:00Z');
  for (let i = 0; i < 25_000; i++) {
    const text = new Date(base + i * 1000).toISOString();
    expect(timeMs(text)).toBe(base + i * 1000);
  }
  expect(timeMs('2030-01-01T00:00:05.000Z')).toBe(base + 5000);
});
