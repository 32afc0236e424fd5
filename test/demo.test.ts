/** `npm run demo` is the README's first command: it must keep running, end to end. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { paths } from './paths.js';

test('npm run demo drives every implemented endpoint on the embedded platform and exits 0', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
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
  // The journal lines the demo prints: every endpoint it drove answered.
  for (const path of [paths.ticket, paths.me, paths.sso]) {
    expect(stdout).toContain(`200 POST ${path}`.replace('POST /external', 'GET /external'));
  }
}, 60_000);
