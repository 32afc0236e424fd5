/**
 * What tests of both halves share: ids that no seed holds, and the scopes a token needs, taken from
 * the endpoint table so that a scope is written once.
 */
import type { Endpoint } from '../src/endpoints.js';

/** Well-formed ids that no seed holds, one per kind: the spec's `404 not_found` cases. */
export const absent = {
  /** Any kind of record. */
  id: 'ffffffffffffffffffffffff',
  account: 'ac00000000000000000000ff',
  userProduct: 'd000000000000000000000ff',
  period: 'c000000000000000000000ff',
  organisation: 'a000000000000000000000ff',
  cancellationReason: 'a100000000000000000000ff',
  helpdeskMessage: 'f000000000000000000000ff',
  helpdeskTemplate: 'f100000000000000000000ff',
} as const;

/** A read scope (get products, 2) and a write scope (update prices, 1): the default test token's. */
export const READ = '/external/product/r';
export const WRITE = '/external/price/w';

/** A price period of endpoint 1: the demo package's monthly credit-card price. */
export const CREDITCARD_PERIOD = {
  subscription_type: 'recurring',
  payment_option: 'creditcard',
  type: 'month',
  length: 1,
  price: 12.9,
} as const;

/** The scopes of a user's token in the spec's retention and me examples (endpoints 6 and 7), as the spec writes them. */
export const USER_SCOPES = ['/external/me/w', '/external/me/r'];

/** Every scope the given endpoints ask for, each once: a token that may call all of them. */
export function scopesOf(...entries: Endpoint[]): string[] {
  return [...new Set(entries.flatMap((entry) => entry.scopes))];
}
