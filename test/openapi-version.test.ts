/**
 * The OpenAPI document's `info.version` is the package's, read from package.json, whether served at
 * `/openapi.json` or written by the build: a version other than the one in the repository shows that
 * it is read, not written in.
 */
import { expect, test, vi } from 'vitest';
import { createPlatform } from '../mock/index.js';
import { openApiDocument } from '../mock/openapi.js';

vi.mock('../package.json', () => ({ default: { version: '9.8.7-test' } }));

test('openApiDocument() and GET /openapi.json say the version of package.json', async () => {
  expect((openApiDocument() as { info: { version: string } }).info.version).toBe('9.8.7-test');
  const answer = await createPlatform().handle(new Request('https://api.platform.test/openapi.json'));
  expect(((await answer.json()) as { info: { version: string } }).info.version).toBe('9.8.7-test');
});
