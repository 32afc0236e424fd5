/**
 * Loaded before each documentation snippet (`node --import`): the embedded reference platform,
 * answering on the example hosts the snippets use, and the values a reader would supply (client
 * credentials, ids) in the environment variables the snippets read. The docs site's in-page runner
 * sets up the same (`docs/site/example-environment.ts`).
 *
 * Under MSW, which answers node:http too (the parity runner sends over it), unless the snippet sets
 * up MSW itself (`SNIPPET_SETS_UP_MSW`): MSW's `setupServer` supports one server in a process, so
 * the platform then answers through `fetch`, as it does in the docs site, behind the snippet's own.
 */
import { setupServer } from 'msw/node';
import { EXAMPLE_ENV, EXAMPLE_HOSTS, exampleFetch } from '../../docs/site/example-environment.js';
import { createHandlers, createPlatform } from '../../mock/index.js';

const platform = createPlatform({ seed: 'demo' });
// A snippet that starts the standalone server (`startServer`) reaches it on loopback; a request to
// any other host is an error.
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
if (process.env.SNIPPET_SETS_UP_MSW) {
  const nodeFetch = globalThis.fetch;
  globalThis.fetch = exampleFetch(platform, (request) =>
    LOOPBACK.has(new URL(request.url).hostname)
      ? nodeFetch(request)
      : Promise.reject(new TypeError(`fetch ${request.url}: the examples reach no other host`)),
  );
} else {
  setupServer(...createHandlers(platform, EXAMPLE_HOSTS)).listen({
    onUnhandledRequest: (request, print) => {
      if (!LOOPBACK.has(new URL(request.url).hostname)) print.error();
    },
  });
}

Object.assign(process.env, EXAMPLE_ENV);
