/**
 * `platform-mock`: the reference platform as a standalone server.
 *
 *   platform-mock [--port 4010] [--host 127.0.0.1] [--seed demo|empty|<file.json>]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { StateDocumentInput } from '../core/document.js';
import { HttpError } from '../core/errors.js';
import { demoCredentials, demoShop, demoSite, demoUsers } from '../seeds/index.js';
import { startServer } from './server.js';

const HELP = `platform-mock: the subscription platform's reference implementation, in memory.

Usage: platform-mock [options]

  --port <n>      port to listen on (default 4010; 0 picks a free port)
  --host <host>   interface to listen on (default 127.0.0.1)
  --seed <seed>   demo | empty | path to a state document (JSON) (default demo)
  -h, --help      this help

Test tools are under /__admin: reset, state, tokens, tickets, sso/sessions, clock, requests, faults.
`;

function fail(message: string): never {
  process.stderr.write(`platform-mock: ${message}\n\n${HELP}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: { port?: string; host?: string; seed?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        seed: { type: 'string', default: 'demo' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid port: ${values.port}`);

  let seed: 'demo' | 'empty' | StateDocumentInput;
  if (values.seed === 'demo' || values.seed === 'empty') seed = values.seed;
  else {
    try {
      seed = JSON.parse(readFileSync(values.seed ?? '', 'utf8')) as StateDocumentInput;
    } catch (err) {
      fail(`cannot read seed ${values.seed}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({ port, host: values.host, seed });
  } catch (err) {
    if (err instanceof HttpError) fail(`invalid seed: ${err.field ?? ''}: ${err.message}`);
    fail(err instanceof Error ? err.message : String(err));
  }
  process.stdout.write(
    `platform-mock listening on ${server.url}\n` +
      `demo client_id:     ${demoCredentials.clientId}\n` +
      `demo client_secret: ${demoCredentials.clientSecret}\n` +
      `demo site:          ${demoSite.clientId} / ${demoSite.clientSecret}\n` +
      `demo user:          ${demoUsers.anna.email} / ${demoUsers.anna.password}\n` +
      `demo shop:          ${server.url}/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}\n`,
  );

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
