/** `npm run demo` is the README's first command: it must keep running, end to end. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { endpoints, nameOf } from '../src/endpoints.js';
import { bundled } from './bundle.js';
import { entryFor, paths } from './paths.js';

test('npm run demo drives every endpoint of the table on the embedded platform and exits 0', async () => {
  // Bundled from the current sources and started with node: a third of tsx's start-up.
  const { stdout } = await promisify(execFile)(process.execPath, [bundled('examples/demo.ts')], {
    cwd: new URL('..', import.meta.url),
    timeout: 60_000,
  });
  expect(stdout).toContain('updated package');
  expect(stdout).toContain('RequestValidationError: field "id"');
  expect(stdout).toContain('NotFoundError: 404 not_found');
  expect(stdout).toContain('reason already_subscribed');
  expect(stdout).toContain('TicketReplayError');
  expect(stdout).toMatch(/logged in as account [a-f\d]{24}/);
  expect(stdout).toContain('titles: DAILY (Demo Daily), EPAPER (Demo Daily e-paper)');
  expect(stdout).toMatch(/access to: .*premium-digital/);
  expect(stdout).toContain('identify: session anon, then to http://localhost:3000/');
  expect(stdout).toMatch(
    /authenticate: logged in as ac0000000000000000000002\n\s+sessionstatus: loggedin\n\s+logout: terminated/,
  );
  // One line per endpoint the demo drives, as it prints them.
  const lines: [string, string | RegExp][] = [
    ['13 provision', /user-product [a-f\d]{24}, controlled by this client's provision service/],
    ['12 update', 'after the update: deactivated'],
    ['5 transfer', 'owner: Anna, with its orders and payment profiles'],
    ['5 transfer back', 'owner: Bo again'],
    ['cancel product', 'cancelled by Jon: cancelled, running to the end of its term'],
    ['16 reactivate', 'reactivated: activated'],
    ['4 available categories', 'categories: address_change, customer_contact, complaint'],
    ['4 log to accounts, ok', '207: logged for Anna, Bo'],
    ['4 log to accounts, errors', 'refused for Frank: The account is archived'],
    ['8 pending messages', '2024-03-01 complaint: Invoice twice (assignee: Ines)'],
    ['11 message', 'Login problem: resolved on 2023-12-02'],
    ['10 template', 'template "Invoice question", used 12 times'],
    ['14 cancellation reasons', 'reasons: Too expensive, No time to read, Moved abroad'],
    ['6 eligible for campaign', 'offered: Stay with Premium Digital at half price (premium-summer)'],
    ['7 subscribe to campaign', 'accepted: now on premium-summer'],
    ['6 again', 'asked again: already_on_campaign'],
    ['18 sync address', 'Anna now lives at Nygatan 9, Stockholm'],
    ['19 sync subscriptions', 'digital-news (PL-1007-2): deactivated'],
    ['19 in sequence', /C1010: failed \(.*weekend-paper/],
    ['17 gift receiver', 'receiver eligible: false (a household there already has the paper)'],
    ['20 distribution', 'days 3, 6 (1 = Monday), 25.00 (31.25 with VAT)'],
  ];
  for (const [endpoint, line] of lines)
    if (typeof line === 'string') expect(stdout, endpoint).toContain(`  ${line}\n`);
    else expect(stdout, endpoint).toMatch(line);
  // The journal lines the demo prints: every endpoint it drove answered.
  for (const path of [paths.generateTicket, paths.getSignedInUser, paths.authenticateWithTicket]) {
    expect(stdout).toContain(`200 POST ${path}`.replace('POST /external', 'GET /external'));
  }
  // And every entry of the endpoint table is among them, answered with its success status (the shop's
  // page a redirect): the README says the demo drives them all.
  const journal = [...stdout.matchAll(/^ {2}(\d{3}) ([A-Z]+) (\S+)$/gm)].map(([, status, method, target]) => ({
    status: Number(status),
    method,
    path: (target ?? '').split('?')[0] ?? '',
  }));
  // Each line counts for the entry the platform's router gives it (a path without parameters before a pattern).
  const undriven = endpoints.filter(
    (e) => !journal.some((l) => l.method === e.method && l.status === e.status && entryFor(l.method, l.path) === e),
  );
  expect(undriven.map(nameOf)).toEqual([]);
}, 60_000);
