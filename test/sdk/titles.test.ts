/** The SDK's titles methods (beyond the spec) against the platform in process: `titles.list` and `titles.find`. */
import { describe, expect, test } from 'vitest';
import { findTitle, listTitles } from '../../src/endpoints.js';
import { NotFoundError, PermissionDeniedError, RequestValidationError } from '../../src/index.js';
import { client, paths, received, scopesOf, usePlatform } from './helpers.js';

usePlatform();

const reader = () => client({}, scopesOf(listTitles, findTitle));

describe('titles', () => {
  test('titles.list and titles.find', async () => {
    expect((await reader().titles.list()).items.map((t) => t.code)).toEqual(['DAILY', 'EPAPER']);
    expect((await reader().titles.find({ title_code: 'DAILY' })).item.name).toBe('Demo Daily');
    await expect(reader().titles.find({ title_code: 'COMPLEX' })).rejects.toBeInstanceOf(NotFoundError);
  });

  test('without the scope: PermissionDeniedError; an empty title_code, or one over 1024 characters: refused before sending', async () => {
    await expect(client().titles.list()).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(reader().titles.find({ title_code: '' })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(reader().titles.find({ title_code: 'T'.repeat(1025) })).rejects.toMatchObject({
      constructor: RequestValidationError,
      field: 'title_code',
    });
    expect(received(paths.findTitle)).toEqual([]);
  });
});
