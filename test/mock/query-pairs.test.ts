/**
 * A query string or form body is read as the URL standard's form parser (`URLSearchParams`) reads
 * it: `pairsToRecord` skips the parser for pairs with nothing to decode but `+`, and must answer
 * exactly what the parser would, a repeated name refused the same way.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { HttpError } from '../../mock/core/errors.js';
import { pairsToRecord } from '../../mock/core/validate.js';

/** Pairs in name order (a record lists integer-like names first). */
function byName(pairs: [string, string][]): [string, string][] {
  return pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What the parser makes of `text`: its pairs in order, or the name repeated first. */
function reference(text: string): [string, string][] | { repeated: string } {
  const out: [string, string][] = [];
  for (const [k, v] of new URLSearchParams(text)) {
    if (out.some(([name]) => name === k)) return { repeated: k };
    out.push([k, v]);
  }
  return byName(out);
}

function actual(text: string): [string, string][] | { repeated: string } {
  try {
    const record = pairsToRecord(text);
    return byName(Object.keys(record).map((k) => [k, Object.getOwnPropertyDescriptor(record, k)?.value]));
  } catch (error) {
    if (error instanceof HttpError && error.code === 'invalid_parameter') return { repeated: error.field ?? '' };
    throw error;
  }
}

describe('query and form pairs, read as URLSearchParams reads them', () => {
  test('plain pairs, + as a space, empty names and values, escapes, __proto__, and a repeated name refused', () => {
    expect(pairsToRecord('product_type=packages&a=b+c')).toEqual({ product_type: 'packages', a: 'b c' });
    expect(pairsToRecord('')).toEqual({});
    expect(pairsToRecord('&&a&=x&b=1=2')).toEqual({ a: '', '': 'x', b: '1=2' });
    expect(pairsToRecord('name=%E2%82%AC%zz')).toEqual({ name: '€%zz' });
    const proto = pairsToRecord('__proto__=x&constructor=y');
    expect(Object.keys(proto)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toBe('x');
    expect(() => pairsToRecord('a=1&a=2')).toThrow(expect.objectContaining({ status: 400, field: 'a' }));
  });

  test('any text of separators, escapes, plus signs and surrogates reads the same both ways', () => {
    const piece = fc.constantFrom(
      'a',
      'b',
      '=',
      '&',
      '+',
      '%',
      '%2',
      '%41',
      '%e2%82%ac',
      '%zz',
      ' ',
      '€',
      '\ud800',
      '\udc00',
      '😀',
      '__proto__',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = pieces.join('');
        expect(actual(text)).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});
