/**
 * docs/state.schema.json is the JSON Schema of the platform's state document, generated from the
 * zod schema the platform validates seeds and `PUT /__admin/state` with. This test fails when the
 * committed file is stale; `UPDATE_GENERATED=1 npx vitest run test/state-schema.test.ts` rewrites it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import * as z from 'zod';
import { createPlatform, StateDocumentSchema } from '../mock/index.js';

const file = new URL('../docs/state.schema.json', import.meta.url);

test('docs/state.schema.json is the JSON Schema of the state document the platform accepts', () => {
  const schema = {
    ...z.toJSONSchema(StateDocumentSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'Reference platform state document',
  };
  const text = `${JSON.stringify(schema, null, 2)}\n`;
  if (process.env.UPDATE_GENERATED === '1') writeFileSync(file, text);
  expect(readFileSync(file, 'utf8')).toBe(text);
});

test('the minimal state document shown in docs/state.md loads, and its client gets a token', async () => {
  const markdown = readFileSync(new URL('../docs/state.md', import.meta.url), 'utf8');
  const json = /```json\n([\s\S]*?)```/.exec(markdown)?.[1];
  expect(json).toBeDefined();
  const platform = createPlatform({ seed: JSON.parse(json ?? '') });
  const answer = await platform.handle(
    new Request('https://auth.platform.test/api/authorization/access_token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'none',
        client_id: 'my-client',
        client_secret: 'my-client-secret-at-least-32-bytes-long',
      }),
    }),
  );
  expect(answer.status).toBe(200);
  expect(platform.snapshot().products).toEqual([]);
});
