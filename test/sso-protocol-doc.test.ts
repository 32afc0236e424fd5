/**
 * docs/sso-protocol.md, the SSO protocol for a client in any language, is held to the code: each
 * operation's request claims (name, type, required, limits) come from the zod schemas the platform
 * verifies with (`src/schemas/sign-on.ts`, by operation in `ssoRequestClaims`), the answer's claims
 * from `SsoSessionClaims`, the error codes from `SsoErrorCode` and `SsoServiceErrorCode`, the
 * lifetimes and the leeway from the constants the platform and the SDK use. The generated parts sit
 * between `<!-- generated:NAME -->` and `<!-- /generated -->`; this test fails when one drifts, and
 * `UPDATE_GENERATED=1 npx vitest run test/sso-protocol-doc.test.ts` rewrites them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import * as z from 'zod';
import { SSO_CLOCK_TOLERANCE_SECONDS, ssoRequestClaims } from '../mock/core/sso.js';
import { SsoErrorCode, SsoServiceErrorCode, SsoSessionClaims } from '../src/schemas/sign-on.js';
import { SSO_IDENTIFY_LIFETIME_SECONDS, SSO_TOKEN_LIFETIME_SECONDS } from '../src/sign-on/sso-token.js';

const file = new URL('../docs/sso-protocol.md', import.meta.url);

/** What each claim means, in the words of the spec and the platform's public documentation. */
const MEANINGS: Readonly<Record<string, string>> = {
  cid: 'the API client id',
  iss: 'request: the organisation id of the client; answer: the SSO audience constant',
  aud: 'request: the SSO audience constant; answer: the client id the token is for',
  nbf: 'not before: the creation time, epoch seconds',
  iat: 'issued at: the creation time, epoch seconds',
  exp: 'expiry, epoch seconds',
  sid: 'the SSO session id',
  at: 'request: an authorization ticket; answer: a new ticket for the client (empty when none)',
  ipa: "the user's IP address",
  uas: "the user's user-agent string",
  apn: "the app's name",
  apv: "the app's version",
  osn: "the operating system's name",
  osv: "the operating system's version",
  lks: 'the session status the site last knew',
  usr: "the user's e-mail address",
  pwd: "the user's password",
  sts: 'the session status',
  aid: 'the account id of the logged-in user (empty when none)',
  err: 'the error code, null on success',
  ems: 'the error message, may be empty',
  frf: 'seconds the account stays frozen; -1 when not frozen',
  raa: 'password attempts left before the account freezes; -1 when not counted',
  slm: 'the most logged-in sessions one account may hold',
  otp: 'a one-time password; empty',
  ses: 'session-limitation data; null',
};

type Property = { type?: string | string[]; minLength?: number; maxLength?: number; minimum?: number; enum?: string[] };

/** A claim's type as the table writes it. */
function typeOf(p: Property): string {
  const types = Array.isArray(p.type) ? p.type : p.type === undefined ? ['any JSON'] : [p.type];
  return types.map((t) => t).join(' or ');
}

/** A claim's limits as the table writes them. */
function limitsOf(p: Property): string {
  const limits: string[] = [];
  if (p.enum) limits.push(`one of ${p.enum.map((v) => `\`${v}\``).join(', ')}`);
  if (p.minLength !== undefined && p.maxLength !== undefined)
    limits.push(`${p.minLength} to ${p.maxLength} characters`);
  else if (p.minLength === 1) limits.push('not empty');
  else if (p.minLength !== undefined) limits.push(`at least ${p.minLength} characters`);
  if (p.type === 'integer' && p.minimum === 0) limits.push('0 or more');
  return limits.join('; ') || '';
}

/** The claims table of a schema: name, type, required, limits, meaning. */
function claimsTable(schema: z.ZodType, io: 'input' | 'output'): string {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as {
    properties: Record<string, Property>;
    required?: string[];
  };
  const rows = Object.entries(json.properties).map(([name, p]) => {
    const meaning = MEANINGS[name];
    if (!meaning) throw new Error(`claim ${name} has no meaning in test/sso-protocol-doc.test.ts`);
    const required = json.required?.includes(name) ? 'yes' : 'no';
    return `| \`${name}\` | ${typeOf(p)} | ${required} | ${limitsOf(p)} | ${meaning} |`;
  });
  return ['| Claim | Type | Required | Limits | Meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** Every generated part of the page, by name. */
function generated(): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const [path, schema] of Object.entries(ssoRequestClaims))
    parts[`request${path.replace('/', ':')}`] = claimsTable(schema, 'input');
  parts.answer = claimsTable(SsoSessionClaims, 'output');
  parts.errors = [...new Set([...SsoErrorCode.options, ...SsoServiceErrorCode.options])]
    .map((code) => `\`${code}\``)
    .join(', ');
  parts.lifetimes = [
    `- A request token lives at most ${SSO_TOKEN_LIFETIME_SECONDS} seconds (\`exp - iat <= ${SSO_TOKEN_LIFETIME_SECONDS}\`, and \`exp > iat\`); the identify token ${SSO_IDENTIFY_LIFETIME_SECONDS} seconds.`,
    `- The platform allows ${SSO_CLOCK_TOLERANCE_SECONDS} seconds of clock skew: \`exp\` may be up to ${SSO_CLOCK_TOLERANCE_SECONDS} s past, \`nbf\` and \`iat\` up to ${SSO_CLOCK_TOLERANCE_SECONDS} s ahead of its clock.`,
    `- A session token (the answer) lives ${SSO_TOKEN_LIFETIME_SECONDS} seconds; public clients verify it with a leeway of 120 seconds.`,
  ].join('\n');
  return parts;
}

/** The page with each generated part written anew. */
function rewritten(page: string): string {
  const parts = generated();
  const missing = Object.keys(parts).filter((name) => !page.includes(`<!-- generated:${name} -->`));
  if (missing.length) throw new Error(`docs/sso-protocol.md has no place for: ${missing.join(', ')}`);
  return page.replace(
    /<!-- generated:([\w:]+) -->\n[\s\S]*?<!-- \/generated -->/g,
    (_, name: string) => `<!-- generated:${name} -->\n${parts[name] ?? '(unknown part)'}\n<!-- /generated -->`,
  );
}

test("docs/sso-protocol.md says each operation's claims, the answer's, the error codes and the lifetimes as the code has them", () => {
  const page = readFileSync(file, 'utf8');
  const expected = rewritten(page);
  if (process.env.UPDATE_GENERATED === '1' && expected !== page) writeFileSync(file, expected);
  else expect(page).toBe(expected);
});

test('a claim the platform adds to an operation changes the page: the table is read from the schema', () => {
  const withExtra = z.object({ ...ssoRequestClaims['/logout'].shape, dev: z.string().min(2).max(9) });
  expect(() => claimsTable(withExtra, 'input')).toThrow(/claim dev has no meaning/);
  const table = claimsTable(ssoRequestClaims['/logout'], 'input');
  expect(table).toContain('| `sid` | string | yes | 1 to 1024 characters | the SSO session id |');
});

test('docs/sign-on.md gives the request tokens the lifetimes the SDK signs them with, identify\u2019s too', () => {
  const page = readFileSync(new URL('../docs/sign-on.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  expect(page.match(/The SSO request token is [^;]*;/)?.[0]).toBe(
    `The SSO request token is HS256 with every claim of the spec and a ${SSO_TOKEN_LIFETIME_SECONDS}-second lifetime (the identify token, which the browser carries to the SSO service: ${SSO_IDENTIFY_LIFETIME_SECONDS} seconds);`,
  );
});
