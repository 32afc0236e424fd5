/** The helpdesk's reads (8, 10, 11) through the SDK, in process. */
import { describe, expect, test } from 'vitest';
import { createHandlers, createPlatform, defaultHosts } from '../../mock/index.js';
import { getHelpdeskMessage, getHelpdeskMessageTemplate, getPendingMessages } from '../../src/endpoints.js';
import { NotFoundError, PlatformClient } from '../../src/index.js';
import { absent, client, demoIds, platform, scopesOf, server, usePlatform } from './helpers.js';

usePlatform();

const sdk = () => client({}, scopesOf(getPendingMessages, getHelpdeskMessage, getHelpdeskMessageTemplate));
const { anna, ines } = demoIds.accounts;

describe('helpdesk', () => {
  test("8: an account's pending messages, each with its account and assignee", async () => {
    const { items } = await sdk().helpdesk.pendingMessages({ account_id: anna });
    expect(items.map((m) => m.state)).toEqual(['pending', 'pending']);
    expect(items[1]?.assignee?.id).toBe(ines);
    expect(items[0]?.assignee).toBeNull();
  });

  test('11 and 10: one message and one template, with occurrences', async () => {
    const { item } = await sdk().helpdesk.message({ id: demoIds.helpdeskMessages.annaResolved });
    expect(item.occurrences).toBe(1);
    const template = await sdk().helpdesk.template({ id: demoIds.helpdeskTemplates.invoice });
    expect(template.item.occurrences).toBe(12);
    await expect(sdk().helpdesk.message({ id: absent.helpdeskMessage })).rejects.toBeInstanceOf(NotFoundError);
  });

  test("the embedded accounts are read at answer time: an agent's new name, an account's first activated product", async () => {
    const assigned = demoIds.helpdeskMessages.annaPendingAssigned;
    const before = (await sdk().helpdesk.message({ id: assigned })).item;
    expect(before.assignee?.first_name).toBe('Ines');
    expect(before.account.has_products).toBe(false);
    const doc = platform.snapshot();
    doc.accounts.find((a) => a.id === ines)!.first_name = 'Inez';
    doc.user_products.find((u) => u.id === demoIds.userProducts.annaPremiumDeactivated)!.state = 'activated';
    platform.restore(doc);
    const after = (await sdk().helpdesk.message({ id: assigned })).item;
    expect(after.assignee?.first_name).toBe('Inez');
    expect(after.account.has_products).toBe(true);
  });

  test("10 on production: the client's environment picks the production spelling of the path", async () => {
    const production = createPlatform({ environment: 'production' });
    server.use(...createHandlers(production, defaultHosts));
    const token = production.mintToken({ scopes: ['/external/helpdesk/r'] }).access_token;
    const prod = new PlatformClient({ environment: 'production', hosts: defaultHosts, auth: { accessToken: token } });
    const { item } = await prod.helpdesk.template({ id: demoIds.helpdeskTemplates.invoice });
    expect(item.heading).toBe('Invoice question');
    // The platform's own journal, of this test alone: only the production spelling reached it.
    expect(production.requests.list().map((e) => e.path)).toEqual(['/external/api/v1/helpdesk_messages_templates']);
  });
});
