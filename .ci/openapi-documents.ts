/**
 * Writes the OpenAPI documents the linters check (`npm run lint:openapi`): the real platform's (the
 * package's `openapi.json`) and what the reference platform serves at `/openapi.json`, on stage
 * with the spec's `/me` and on production with the documented one.
 *
 *   tsx .ci/openapi-documents.ts <directory>
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiDocument } from '../mock/openapi.js';

const directory = process.argv[2] ?? '.tmp/openapi';
mkdirSync(directory, { recursive: true });
const documents = {
  'openapi.json': openApiDocument(),
  'served-stage.json': openApiDocument({
    server: { url: 'http://127.0.0.1:4010', environment: 'stage', meShape: 'spec' },
  }),
  'served-production.json': openApiDocument({
    server: { url: 'http://127.0.0.1:4010', environment: 'production', meShape: 'documented' },
  }),
};
for (const [name, document] of Object.entries(documents))
  writeFileSync(join(directory, name), `${JSON.stringify(document, null, 2)}\n`);
