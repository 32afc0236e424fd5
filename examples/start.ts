/**
 * `npm start`: the reference platform (API, authorization API, SSO and the shop, demo seed) and the
 * example site, both on this machine, to try the sign-on round trip in a browser.
 *
 *   npm start -- --port 4010 --site-port 3000
 */
import { parseArgs } from 'node:util';
import { demoCredentials, demoShop, demoSite, demoUsers } from '../mock/index.js';
import { startServer } from '../mock/node/index.js';
import { createSite, DEMO_SITE_PASSWORDS } from './site/index.js';

function portOption(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--${name} must be a port number (0-65535), not ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return port;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'site-port': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('Usage: npm start -- [--port 4010] [--site-port 3000]   (0 picks a free port)');
  process.exit(0);
}

const platform = await startServer({ port: portOption(values.port, 4010, 'port'), seed: 'demo' });
let site: Awaited<ReturnType<typeof createSite>>;
try {
  site = await createSite({
    platformUrl: platform.url,
    credentials: { clientId: demoSite.clientId, clientSecret: demoSite.clientSecret },
    shop: demoShop,
    port: portOption(values['site-port'], 3000, 'site-port'),
    log: (line) => console.log(`  [site] ${line}`),
  });
} catch (error) {
  await platform.close();
  throw error;
}

console.log(`
Reference platform (API, auth, SSO, shop):  ${platform.url}
  demo API client:  ${demoCredentials.clientId} / ${demoCredentials.clientSecret}
  demo shop:        ${platform.url}/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}

Example site, by the address you open it at:
  ${site.urlFor('localhost').padEnd(38)} returns from the shop in mode ReturnUrl
  ${site.urlFor('127.0.0.1').padEnd(38)} returns in mode SeparateTicketAuth (via /auth/ticket)
  ${site.urlFor('unregistered.localhost').padEnd(38)} not registered with the shop: returns without a ticket

Sign in on the site as ${demoUsers.anna.email} / ${DEMO_SITE_PASSWORDS.anna}, click Subscribe,
buy in the shop (no second login) and return to the site. Ctrl-C stops both.
`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping`);
  await Promise.allSettled([site.close(), platform.close()]);
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
