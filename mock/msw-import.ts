/**
 * MSW, loaded for the MSW adapter (`mock/msw.ts`): an optional peer dependency, so a missing `msw`
 * is an error that says what to do, not Node's bare "Cannot find package 'msw'". A static import
 * could not say it (a missing package fails before any code runs): this module imports it with a
 * top-level `await`. The build gives the CommonJS bundle the same guard around `require('msw')`, and
 * the browser bundle a plain import (tsup.config.ts).
 */
import type * as Msw from 'msw';

/** What a missing `msw` is told: how to install it, and the entry point that needs none. */
const MSW_MISSING =
  'subscription-platform-sdk/mock needs msw, an optional peer dependency that is not installed: ' +
  'npm i -D msw. Without msw, subscription-platform-sdk/mock/node serves the same platform over HTTP ' +
  '(startServer, for scripts and for test suites in other languages).';

/** Whether `error` says that `msw` itself cannot be found (not a failure inside an installed msw). */
function isMswMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    /['"]msw['"]/.test(message)
  );
}

let msw: typeof Msw;
try {
  msw = await import('msw');
} catch (error) {
  throw isMswMissing(error) ? new Error(MSW_MISSING, { cause: error }) : error;
}

/** MSW's `http` namespace. */
export const http: typeof Msw.http = msw.http;
