/**
 * The OpenAPI document's `info.version` is the package's, read from package.json, whether served at
 * `/openapi.json` or written by the build: a version other than the one in the repository shows that
 * it is read, not written in.
 */
import { afterAll, expect, test, vi } from 'vitest';

// Test files share their workers' module cache (`isolate: false`): the mocked package.json is
// loaded into a fresh registry, and the next file gets the real one back.
afterAll(() => {
  vi.doUnmock('../package.json');
  vi.resetModules();
});

test('openApiDocument() and GET /openapi.json say the version of package.json', async () => {
  vi.resetModules();
  vi.doMock('../package.json', () => ({ default: { version: '9.8.7-test' } }));
  const { openApiDocument } = await import('../mock/openapi.js');
  const { createPlatform } = await import('../mock/index.js');
  expect((openApiDocument() as { info: { version: string } }).info.version).toBe('9.8.7-test');
  const answer = await createPlatform().handle(new Request('https://api.platform.test/openapi.json'));
  expect(((await answer.json()) as { info: { version: string } }).info.version).toBe('9.8.7-test');
});
