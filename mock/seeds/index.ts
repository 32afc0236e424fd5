import type { StateDocumentInput } from '../core/document.js';
import { demoSeed } from './demo.js';
import { emptySeed } from './empty.js';

/** The named seeds: `demo` (every case of the implemented endpoints) and `empty`. */
export const seeds: Readonly<Record<'demo' | 'empty', StateDocumentInput>> = { demo: demoSeed, empty: emptySeed };
export {
  DEMO_SITE_LANDING_URL,
  DEMO_SSO_AUDIENCE,
  type DemoUser,
  demoCredentials,
  demoIds,
  demoShop,
  demoSite,
  demoSiteB,
  demoUsers,
} from './demo.js';
