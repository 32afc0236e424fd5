import type { StateDocumentInput } from '../core/document.js';
import { demoSeed } from './demo.js';

/**
 * The `empty` seed: the demo organisation and the demo client only, so that the demo credentials
 * still obtain tokens; no accounts, no products.
 */
export const emptySeed: StateDocumentInput = {
  organisations: demoSeed.organisations?.slice(0, 1),
  clients: demoSeed.clients?.slice(0, 1),
};
