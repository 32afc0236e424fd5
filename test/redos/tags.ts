/**
 * Endpoint 2's `tags`: the linear rule the SDK and the platform check against the rule as the
 * spec writes it, which backtracks exponentially and so is run on short texts only.
 * `test/mock/tags-redos.test.ts` compares every short text and a seeded share of longer ones;
 * `npm run redos` every text of up to {@link EXHAUSTIVE_LENGTH} characters.
 */
import { GetProductsQuery } from '../../src/schemas/products.js';

/** The spec's rule. */
export const SPEC_RULE = /^([a-zA-Z0-9]+,?\s*)+$/;

/** The characters the texts are made of: a letter, a digit, each separator, and one the rule refuses. */
export const ALPHABET = ['a', '1', ',', ' ', '\t', '!'] as const;

/** The longest texts the long mode compares all of (335,922 texts). */
export const EXHAUSTIVE_LENGTH = 7;

/** Whether the two rules agree on a text; the SDK's and the platform's rule is the query schema's. */
export function agrees(tags: string): boolean {
  return GetProductsQuery.safeParse({ tags }).success === SPEC_RULE.test(tags);
}

/** Every text over {@link ALPHABET} of `length` characters, one after another. */
export function* textsOf(length: number): Generator<string> {
  if (length === 0) {
    yield '';
    return;
  }
  for (const shorter of textsOf(length - 1)) for (const c of ALPHABET) yield shorter + c;
}

/** Compares every text of up to `maxLength` characters: how many, and those the rules disagree on. */
export function compareUpTo(maxLength: number): { compared: number; disagreements: string[] } {
  let compared = 0;
  const disagreements: string[] = [];
  for (let length = 1; length <= maxLength; length++)
    for (const tags of textsOf(length)) {
      compared++;
      if (!agrees(tags)) disagreements.push(tags);
    }
  return { compared, disagreements };
}
