/**
 * A client generated from the package's OpenAPI document (openapi-typescript's types, openapi-fetch's
 * calls: test/openapi-client/) calls every operation against the standalone server. The generated
 * types are committed so that `npm run typecheck` compiles the client against them; this test fails
 * when they are not what the document generates now (`UPDATE_GENERATED=1` rewrites them).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPlatform } from '../mock/index.js';
import { type RunningServer, startServer } from '../mock/node/index.js';
import { openApiDocument } from '../mock/openapi.js';
import { callEveryOperation } from './openapi-client/client.js';

type Operation = { operationId: string; responses: Record<string, unknown> };
const document = openApiDocument() as { paths: Record<string, Record<string, Operation>> };
const operations = Object.values(document.paths).flatMap((item) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
    .map(([, op]) => op),
);

test('the generated types in test/openapi-client/schema.d.ts are what the document generates now', async () => {
  const file = new URL('./openapi-client/schema.d.ts', import.meta.url);
  const generated = astToString(await openapiTS(document as never));
  if (process.env.UPDATE_GENERATED === '1' && readFileSync(file, 'utf8') !== generated) writeFileSync(file, generated);
  else expect(readFileSync(file, 'utf8')).toBe(generated);
}, 60_000);

const servers: RunningServer[] = [];
beforeAll(async () => {
  servers.push(await startServer({ platform: createPlatform(), port: 0 }));
  servers.push(await startServer({ platform: createPlatform({ environment: 'production' }), port: 0 }));
});
afterAll(async () => {
  for (const s of servers) await s.close();
});

test("the generated client calls every operation of the document, each answered with its operation's success status", async () => {
  const [stage, production] = servers as [RunningServer, RunningServer];
  const called = await callEveryOperation({ stage: stage.url, production: production.url });
  expect(called.map((c) => c.operationId).sort()).toEqual(operations.map((op) => op.operationId).sort());
  const success = Object.fromEntries(
    operations.map((op) => [op.operationId, Object.keys(op.responses).filter((s) => /^[23]/.test(s))]),
  );
  for (const { operationId, status } of called) expect(success[operationId], operationId).toContain(String(status));
}, 120_000);
