/**
 * A test environment whose globals are another realm's (jest's jsdom environment runs the suite in
 * a vm context, and its `TextEncoder` is Node's): the SSO service still signs and verifies its
 * tokens, with the client's secret as key bytes jose takes (this realm's `Uint8Array`).
 */
import { afterEach, expect, test, vi } from 'vitest';
import { foreignTextEncoder } from '../realms.js';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

test("an SSO session under a TextEncoder of another realm: the service's tokens are signed and verified", async () => {
  vi.stubGlobal('TextEncoder', foreignTextEncoder());
  vi.resetModules();
  const { createPlatform, defaultHosts, demoSite } = await import('../../mock/index.js');
  const { PlatformClient } = await import('../../src/index.js');
  const platform = createPlatform({ seed: 'demo' });
  const client = new PlatformClient({
    environment: 'stage',
    hosts: defaultHosts,
    auth: { clientId: demoSite.clientId, clientSecret: demoSite.clientSecret, scopes: ['/api/authorization/ticket'] },
    sso: { audience: demoSite.ssoAudience, organisationId: demoSite.organisationId },
    fetch: (input, init) => platform.handle(new Request(input, init)),
  });
  const session = await client.sso.createSession({
    ipAddress: '203.0.113.7',
    userAgent: 'test',
    appName: 'test',
    appVersion: '1',
    osName: 'linux',
    osVersion: '1',
  });
  expect(session.status).toBe('anon');
});
