/**
 * `npm start`: the reference platform (API, authorization API, SSO and the shop, demo seed) and two
 * example sites of its organisation "Demo Media", all on this machine, to try in a browser: the
 * SSO login shared by both sites, the sign-on round trip through the shop, and cancelling a
 * subscription with a retention offer first.
 *
 *   npm start -- --port 4010 --site-port 3000 --site-b-port 3001
 */
import { parseArgs } from 'node:util';
import { demoCredentials, demoShop, demoSite, demoSiteB, demoUsers } from '../mock/index.js';
import { type RunningServer, startServer } from '../mock/node/index.js';
import { createSite, type RunningSite } from './site/index.js';

const USAGE = `Usage: npm start -- [options]

Starts the reference platform with the demo data and two example sites of its organisation.

Options (0 picks a free port):
  --port <n>          the platform: API, authorization, SSO and shop (default 4010)
  --site-port <n>     site A, "Demo News": SSO login, the shop and back, cancel my subscription (default 3000)
  --site-b-port <n>   site B, "Demo Sport": the same SSO session, so a user logged in on A is logged in here (default 3001)
  -h, --help          this text

The demo seed registers the sites' SSO landing pages at http://localhost:3000/sso/landing and
http://localhost:3001/sso/landing; other ports are registered for this run. Open the sites at
localhost: the SSO service sends browsers back to that host name only.`;

function portOption(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--${name} must be a port number (0-65535), not ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return port;
}

let values: { port?: string; 'site-port'?: string; 'site-b-port'?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      'site-port': { type: 'string' },
      'site-b-port': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const ports = {
  platform: portOption(values.port, 4010, 'port'),
  siteA: portOption(values['site-port'], 3000, 'site-port'),
  siteB: portOption(values['site-b-port'], 3001, 'site-b-port'),
};

/**
 * Registers each site's landing page with the platform when it is not the one the seed has (another
 * port): the SSO service's identify sends browsers to the registered URL only.
 */
function registerLandingPages(platform: RunningServer, landing: Record<string, string>): boolean {
  const doc = platform.platform.snapshot();
  let changed = false;
  for (const client of doc.clients) {
    const url = landing[client.client_id];
    if (url !== undefined && client.landing_url !== url) {
      client.landing_url = url;
      changed = true;
    }
  }
  if (changed) platform.platform.restore(doc);
  return changed;
}

const sso = { audience: demoSite.ssoAudience, organisationId: demoSite.organisationId };
const platform = await startServer({ port: ports.platform, seed: 'demo' });
const started: RunningSite[] = [];
let siteA: RunningSite;
let siteB: RunningSite;
try {
  siteA = await createSite({
    platformUrl: platform.url,
    credentials: { clientId: demoSite.clientId, clientSecret: demoSite.clientSecret },
    sso,
    shop: demoShop,
    port: ports.siteA,
    log: (line) => console.log(`  [site A] ${line}`),
  });
  started.push(siteA);
  siteB = await createSite({
    platformUrl: platform.url,
    credentials: { clientId: demoSiteB.clientId, clientSecret: demoSiteB.clientSecret },
    sso,
    siteName: 'Demo Sport',
    // Both sites answer on localhost: cookies do not tell ports apart, so each has its own cookie.
    cookieName: 'site_b_session',
    hostnames: ['localhost'],
    port: ports.siteB,
    log: (line) => console.log(`  [site B] ${line}`),
  });
  started.push(siteB);
} catch (error) {
  await Promise.allSettled([...started.map((s) => s.close()), platform.close()]);
  throw error;
}
const reregistered = registerLandingPages(platform, {
  [demoSite.clientId]: siteA.landingUrl,
  [demoSiteB.clientId]: siteB.landingUrl,
});

const login = (user: { email: string; password: string }) => `${user.email} / ${user.password}`;
console.log(`
Reference platform (API, auth, SSO, shop):  ${platform.url}
  demo API client:  ${demoCredentials.clientId} / ${demoCredentials.clientSecret}
  demo shop:        ${platform.url}/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}

Site A, "Demo News", by the address you open it at:
  ${siteA.urlFor('localhost').padEnd(38)} SSO login; returns from the shop in mode ReturnUrl
  ${siteA.urlFor('127.0.0.1').padEnd(38)} returns in mode SeparateTicketAuth (via /auth/ticket)
  ${siteA.urlFor('unregistered.localhost').padEnd(38)} not registered with the shop: returns without a ticket
Site B, "Demo Sport", same organisation, same SSO session:
  ${siteB.urlFor('localhost').padEnd(38)} logged in already when you logged in on site A
SSO landing pages${reregistered ? ' (registered for this run)' : ''}: ${siteA.landingUrl}, ${siteB.landingUrl}

The sites keep no passwords: the login form signs in with the platform's SSO service, as
${login(demoUsers.anna)} (or ${login(demoUsers.eva)}). Then open site B: no second login.
"Log out everywhere" on either site logs you out on both. On site A, Subscribe buys in the shop
with no second login; then "Cancel my subscription" offers a retention campaign first.
Ctrl-C stops everything.
`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping`);
  await Promise.allSettled([siteA.close(), siteB.close(), platform.close()]);
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
