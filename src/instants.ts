/**
 * Instants of ISO 8601 date-times with offset, compared to the fraction each gives. `Date.parse`
 * keeps milliseconds only, and the platform keeps a date-time as given, nanoseconds and all: two
 * that `Date.parse` reads as one millisecond may still be in order (`.0001Z` before `.0002Z`).
 */

/** A date-time's whole seconds (as `Date.parse` reads them, in ms) and its second's fraction's digits. */
function parts(text: string): readonly [number, string] {
  const fraction = /\.(\d+)/.exec(text);
  if (!fraction) return [Date.parse(text), ''];
  return [Date.parse(text.slice(0, fraction.index) + text.slice(fraction.index + fraction[0].length)), fraction[1]!];
}

/**
 * Below 0 when date-time `a` is an earlier instant than `b`, 0 when the same, above 0 when later;
 * `NaN` when either is not a date-time `Date.parse` reads. An offset is whole minutes, so the
 * fractions of two instants compare as they are written.
 */
export function compareInstants(a: string, b: string): number {
  const [secondsA, fractionA] = parts(a);
  const [secondsB, fractionB] = parts(b);
  if (Number.isNaN(secondsA) || Number.isNaN(secondsB)) return Number.NaN;
  if (secondsA !== secondsB) return secondsA - secondsB;
  const digits = Math.max(fractionA.length, fractionB.length);
  const [x, y] = [fractionA.padEnd(digits, '0'), fractionB.padEnd(digits, '0')];
  return x === y ? 0 : x < y ? -1 : 1;
}
