/**
 * The `platform-mock` command line, read in process: its help, its flags and their checks come from
 * the options' declarations. The CLI's process (start, signals, exit codes) is tested in cli.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type * as z from 'zod';
import { flagOf, PlatformOptionsSchema } from '../../mock/core/options.js';
import {
  captureHelpText,
  DOCS_URL,
  helpText,
  parityHelpText,
  parseCommandLine,
  UsageError,
} from '../../mock/node/command-line.js';
import pkg from '../../package.json' with { type: 'json' };
import { docsPageHas } from './docs-links.js';

/** The message of the usage error `args` make. */
function refusal(args: string[], env: Record<string, string> = {}): string {
  try {
    parseCommandLine(args, env);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`${args.join(' ')} was not refused`);
}

describe('platform-mock --help', () => {
  test('names every platform option with its default', () => {
    const help = helpText();
    expect(help).toContain('--seed');
    for (const flag of [
      '--environment',
      '--sso-audience',
      '--ticket-lifetime',
      '--token-lifetime',
      '--sync-processing-ms',
      '--me-shape',
      '--login-max-failures',
      '--login-freeze-seconds',
      '--max-sessions-per-account',
      '--now',
      '--journal-limit',
      '--max-body-bytes',
      '--request-timeout',
      '--headers-timeout',
      '--keep-alive-timeout',
      '--max-connections',
      '--max-held-body-bytes',
    ])
      expect(help, flag).toMatch(new RegExp(`${flag} .*default`));
  });

  test('every option of createPlatform has a flag but basePath and onError, as docs/other-languages.md says', () => {
    /** The options without a flag, by path: a group without a flag of its own (`login`) by its members. */
    const unflagged = (shape: Record<string, z.ZodType>, prefix = ''): string[] =>
      Object.entries(shape).flatMap(([key, schema]) => {
        if (flagOf(schema)) return [];
        let inner: z.ZodType = schema;
        while ('innerType' in inner.def) inner = inner.def.innerType as z.ZodType;
        return inner.def.type === 'object'
          ? unflagged((inner as z.ZodObject).shape, `${prefix}${key}.`)
          : [`${prefix}${key}`];
      });
    expect(unflagged(PlatformOptionsSchema.shape)).toEqual(['basePath', 'onError']);
  });

  test('shows the declared defaults: 4010, stage, 60 s tickets, 1000 journal entries, 1 MiB bodies', () => {
    const help = helpText();
    expect(help).toMatch(/--port <n> .*\(default 4010\)/);
    expect(help).toMatch(/--environment <env> .*\(default stage\)/);
    expect(help).toMatch(/--ticket-lifetime <s> .*\(default 60\)/);
    expect(help).toMatch(/--journal-limit <n> .*\(default 1000\)/);
    expect(help).toMatch(/--max-body-bytes <n> .*\(default 1048576\)/);
    expect(help).toMatch(/--max-held-body-bytes <n> .*\(default 67108864\)/);
    expect(help).toContain('(or set PLATFORM_MOCK_ADMIN_TOKEN)');
  });

  test("points to the docs by their URL in the package's repository (the package ships no docs/), each to a page and a heading that exist", () => {
    const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(DOCS_URL).toBe(`${repository}/blob/main/docs/`);
    const help = [helpText(), parityHelpText(), captureHelpText()].join('\n');
    expect(help, 'a path that an installed package does not have').not.toMatch(/(?<!\/)docs\/[\w-]+\.md/);
    const links = [...help.matchAll(/https:\/\/\S+/g)].map(([link]) => link);
    expect(links).toEqual([`${DOCS_URL}shared-server.md#namespaces`, `${DOCS_URL}assumptions.md`]);
    for (const link of links) expect(docsPageHas(link), link).toBe(true);
  });

  test('names each retention cap with its default: 10000 records of each kind, 100 price periods a package', () => {
    const help = helpText();
    for (const flag of [
      '--max-access-tokens',
      '--max-tickets',
      '--max-sso-sessions',
      '--max-shop-sessions',
      '--max-wrong-password-counts',
      '--max-account-change-logs',
      '--max-user-products',
    ])
      expect(help, flag).toMatch(new RegExp(`${flag} <n> .*the oldest go first \\(default 10000\\)`));
    expect(help).toMatch(/--max-price-periods <n> .*would add more is refused \(default 100\)/);
    expect(help).toMatch(/--max-shop-accounts <n> .*a new one over it is refused \(default 10000\)/);
  });

  test("names each admin route of docs/other-languages.md's table, and the namespaces' of docs/shared-server.md", () => {
    const docs = ['other-languages.md', 'shared-server.md']
      .map((page) => readFileSync(new URL(`../../docs/${page}`, import.meta.url), 'utf8'))
      .join('\n');
    const routes = new Set(
      [...docs.matchAll(/`(?:(?:GET|POST|PUT|PATCH|DELETE),? )+\/__admin\/(sso\/sessions|[a-z-]+)/g)].map(([, r]) => r),
    );
    expect(routes.size).toBeGreaterThan(10);
    const line = helpText()
      .split('\n\n')
      .find((p) => p.startsWith('Test tools are under /__admin:'))
      ?.replace(/\s+/g, ' ');
    for (const route of routes) expect(line, route).toMatch(new RegExp(`[:,;] ${route}\\b`));
  });

  test('each flag is named in the docs (README.md or docs/), in backquotes', () => {
    const docs = [
      '../../README.md',
      ...readdirSync(new URL('../../docs/', import.meta.url)).map((f) => `../../docs/${f}`),
    ]
      .filter((f) => f.endsWith('.md'))
      .map((f) => readFileSync(new URL(f, import.meta.url), 'utf8'))
      .join('\n');
    const flags = [...helpText().matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map(([, flag]) => flag ?? '');
    expect(flags.length).toBeGreaterThan(40);
    for (const flag of flags) expect(docs, flag).toMatch(new RegExp(`\`${flag}[\` ]`));
  });

  test('-h and --help ask for the help, -v and --version for the version', () => {
    expect(parseCommandLine(['-h'])).toEqual({ action: 'help' });
    expect(parseCommandLine(['--help', '--port', '1'])).toEqual({ action: 'help' });
    expect(parseCommandLine(['-v'])).toEqual({ action: 'version' });
  });
});

describe('platform-mock flags', () => {
  test('each flag sets its option, in the type the option declares', () => {
    const command = parseCommandLine([
      '--port',
      '0',
      '--environment',
      'production',
      '--now',
      '2030-01-02T03:04:05Z',
      '--ticket-lifetime',
      '5',
      '--login-max-failures',
      '3',
      '--allowed-hosts',
      ' a.example, .b.example ,',
      '--no-admin',
      '--return-interstitial',
      '--headers-timeout',
      '2000',
      '--log',
    ]);
    expect(command).toEqual({
      action: 'serve',
      platform: {
        environment: 'production',
        now: '2030-01-02T03:04:05Z',
        ticketLifetimeSeconds: 5,
        login: { maxFailedAttempts: 3 },
        admin: false,
        returnInterstitial: true,
      },
      server: { port: 0, allowedHosts: ['a.example', '.b.example'], headersTimeoutMs: 2000 },
      requestLines: 'always',
    });
  });

  test('the retention flags set the caps of the records requests add', () => {
    expect(
      parseCommandLine([
        '--max-account-change-logs',
        '500',
        '--max-user-products',
        '2000',
        '--max-price-periods',
        '40',
      ]),
    ).toMatchObject({
      platform: { retention: { maxAccountChangeLogs: 500, maxUserProducts: 2000, maxPricePeriods: 40 } },
    });
    expect(refusal(['--max-account-change-logs', '0'])).toMatch(/^invalid --max-account-change-logs: 0 /);
    expect(refusal(['--max-user-products', 'many'])).toMatch(/^invalid --max-user-products: many /);
    expect(refusal(['--max-price-periods', '10001'])).toMatch(/^invalid --max-price-periods: 10001 /);
  });

  test('no flags: nothing set, the declarations default it; a line per request when standard output is a terminal', () => {
    expect(parseCommandLine([])).toEqual({ action: 'serve', platform: {}, server: {}, requestLines: 'terminal' });
    expect(parseCommandLine(['--quiet'])).toMatchObject({ requestLines: 'never' });
    expect(parseCommandLine(['--allowed-hosts', 'all'])).toMatchObject({ server: { allowedHosts: 'all' } });
  });

  test('the admin token may come from PLATFORM_MOCK_ADMIN_TOKEN; the flag wins; an empty variable is refused, not read as none', () => {
    expect(parseCommandLine([], { PLATFORM_MOCK_ADMIN_TOKEN: 'from-env' })).toMatchObject({
      platform: { adminToken: 'from-env' },
    });
    expect(parseCommandLine(['--admin-token', 'flag'], { PLATFORM_MOCK_ADMIN_TOKEN: 'env' })).toMatchObject({
      platform: { adminToken: 'flag' },
    });
    // `PLATFORM_MOCK_ADMIN_TOKEN="$UNSET"` would otherwise leave /__admin open without a word.
    expect(refusal([], { PLATFORM_MOCK_ADMIN_TOKEN: '' })).toBe(
      'PLATFORM_MOCK_ADMIN_TOKEN is set but empty: give it a value, or unset it',
    );
    expect(parseCommandLine(['--admin-token', 'flag'], { PLATFORM_MOCK_ADMIN_TOKEN: '' })).toMatchObject({
      platform: { adminToken: 'flag' },
    });
    // Help and the version are printed all the same.
    expect(parseCommandLine(['--help'], { PLATFORM_MOCK_ADMIN_TOKEN: '' })).toEqual({ action: 'help' });
    expect(parseCommandLine(['--version'], { PLATFORM_MOCK_ADMIN_TOKEN: '' })).toEqual({ action: 'version' });
  });

  test.each([
    [['--port', 'abc'], 'invalid --port: abc'],
    [['--port', '65536'], 'invalid --port: 65536'],
    // A negative number is the flag's value, refused by its check (parseArgs alone calls it ambiguous).
    [['--port', '-1'], 'invalid --port: -1 (a whole number of 0 or more)'],
    [['--journal-limit', '-3', '--quiet'], 'invalid --journal-limit: -3 (a whole number of 0 or more)'],
    [['--now', '-2030-01-01T00:00:00Z'], 'invalid --now: -2030-01-01T00:00:00Z'],
    // After `--`, nothing is a flag's value: positional, and refused as such.
    [['--', '--port', '-1'], "Unexpected argument '--port'"],
    [['--environment', 'qa'], 'invalid --environment: qa'],
    [['--ticket-lifetime', '0'], 'invalid --ticket-lifetime'],
    [['--login-max-failures', '0'], 'invalid --login-max-failures'],
    [['--me-shape', 'camel'], 'invalid --me-shape: camel'],
    [['--login-freeze-seconds', '1.5'], 'invalid --login-freeze-seconds'],
    [['--max-sessions-per-account', 'x'], 'invalid --max-sessions-per-account'],
    [['--token-lifetime', 'x'], 'invalid --token-lifetime'],
    [['--sync-processing-ms', '60001'], 'invalid --sync-processing-ms'],
    [['--sso-audience', ''], 'invalid --sso-audience'],
    [['--now', '2030-01-01'], 'invalid --now: 2030-01-01'],
    [['--now', '2030-01-01T00:00:00'], 'invalid --now: 2030-01-01T00:00:00'],
    [['--now', '0000-06-01T00:00:00Z'], 'invalid --now'],
    // A day past its month's end, which `new Date` would read as one in the next month.
    [['--now', '2030-02-30T00:00:00Z'], 'invalid --now: 2030-02-30T00:00:00Z'],
    [['--now', '2030-02-29T00:00:00Z'], 'invalid --now: 2030-02-29T00:00:00Z'],
    // An empty interface would listen on every one.
    [['--host', ''], 'invalid --host'],
    [['--journal-limit', 'x'], 'invalid --journal-limit: x'],
    [['--journal-limit', '1.5'], 'invalid --journal-limit: 1.5'],
    [['--max-body-bytes', '0'], 'invalid --max-body-bytes: 0'],
    [
      ['--max-body-bytes', '700000000'],
      'invalid --max-body-bytes: 700000000 (must be an integer from 1 to 268435456 (256 MiB))',
    ],
    [['--request-timeout', '0'], 'invalid --request-timeout: 0'],
    [
      ['--headers-timeout', '40000'],
      'invalid --headers-timeout: 40000 (must be at most requestTimeoutMs (--request-timeout))',
    ],
    [['--admin-token', ''], 'invalid --admin-token'],
    [['--quiet', '--log'], '--quiet and --log exclude each other'],
    [['--admin-token', 'x', '--no-admin'], '--admin-token and --no-admin exclude each other'],
    [
      ['--allowed-hosts', 'a.test,mock.test:8080'],
      'invalid --allowed-hosts: a.test,mock.test:8080 ("mock.test:8080" can match no',
    ],
    [['--allowed-hosts', 'http://a.test'], 'invalid --allowed-hosts'],
    [['--bogus'], "Unknown option '--bogus'"],
  ] as const)('%j is a usage error naming the flag (%s)', (args, message) => {
    expect(refusal([...args])).toContain(message);
  });

  test('PLATFORM_MOCK_ADMIN_TOKEN with --no-admin is a usage error too', () => {
    expect(refusal(['--no-admin'], { PLATFORM_MOCK_ADMIN_TOKEN: 'x' })).toBe(
      '--admin-token and --no-admin exclude each other',
    );
  });
});
