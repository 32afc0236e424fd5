/**
 * The most a price may be: a period's `price`, a details line's, and the sum of a period's lines
 * (its price in the complex model), in endpoint 1 and in the state document. The spec gives no
 * bound; a price is kept to the cent, which a number holds only below about 9 x 10^13, and a sum
 * past a number's range would be answered as `price: null` (endpoint 3). Not exported by the
 * package: its schemas say it (`maximum` in their JSON Schema).
 */
export const MAX_PRICE = 1_000_000_000_000;
