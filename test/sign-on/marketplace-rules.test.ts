/**
 * src/sign-on/marketplace-rules.ts is generated from endpoint 25's entry (`marketplace`) and its
 * `MarketplaceQuery` schema, so that the shop URL helper checks the table's rules without loading
 * zod. This test fails when the module is stale;
 * `UPDATE_GENERATED=1 npx vitest run test/sign-on/marketplace-rules.test.ts` rewrites it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import { marketplace, pathOf } from '../../src/endpoints.js';
import { platformErrorMap } from '../../src/schemas/common.js';
import { MarketplaceQuery } from '../../src/schemas/sign-on.js';
import { marketplaceUrl, SignOnValidationError } from '../../src/sign-on/index.js';

const file = new URL('../../src/sign-on/marketplace-rules.ts', import.meta.url);

/** A string literal as the code base writes it: in single quotes. */
const quote = (text: string) => `'${text.replace(/[\\']/g, '\\$&')}'`;

/** A query parameter as the helper checks it: a text, required or not, with bounds on its length. */
interface QueryRule {
  readonly name: string;
  readonly required: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
}

/** The rules of the entry's query, read from its JSON Schema; a rule the helper cannot check stops the generation. */
function queryRules(): QueryRule[] {
  const schema = z.toJSONSchema(marketplace.query, { io: 'input' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  // A `description` says what a parameter is for (the OpenAPI document's words): no rule to check.
  return Object.entries(schema.properties ?? {}).map(
    ([name, { type, minLength, maxLength, description: _, ...other }]) => {
      const bounds = [minLength, maxLength].every((n) => n === undefined || typeof n === 'number');
      if (type !== 'string' || !bounds || Object.keys(other).length > 0)
        throw new Error(`MarketplaceQuery.${name}: the shop URL helper checks texts and their lengths only`);
      return {
        name,
        required: schema.required?.includes(name) ?? false,
        ...(minLength === undefined ? {} : { minLength: minLength as number }),
        ...(maxLength === undefined ? {} : { maxLength: maxLength as number }),
      };
    },
  );
}

/** The module's text, formatted as the code base formats it. */
function moduleText(): string {
  const path = pathOf(marketplace, 'stage');
  if (pathOf(marketplace, 'production') !== path) throw new Error('The shop URL helper knows one path for endpoint 25');
  const rules = queryRules().map(
    (rule) =>
      `  { ${Object.entries(rule)
        .map(([key, value]) => `${key}: ${typeof value === 'string' ? quote(value) : String(value)}`)
        .join(', ')} },`,
  );
  return [
    "// Generated from the endpoint table's `marketplace` entry (endpoint 25) and its `MarketplaceQuery` schema, for",
    '// the shop URL helper, which checks them without loading zod. Do not edit: after a change of either,',
    '// `UPDATE_GENERATED=1 npx vitest run test/sign-on/marketplace-rules.test.ts` rewrites it.',
    '',
    '/** The path of endpoint 25 on `{shop_url}`: each `{name}` segment is an id. */',
    `export const MARKETPLACE_PATH = ${quote(path)};`,
    '',
    "/** The query parameters of endpoint 25 in the schema's order: the name on the wire, whether required, length bounds. */",
    'export const MARKETPLACE_QUERY = [',
    ...rules,
    '] as const;',
    '',
  ].join('\n');
}

test("src/sign-on/marketplace-rules.ts holds endpoint 25's path and MarketplaceQuery's rules", () => {
  const text = moduleText();
  if (process.env.UPDATE_GENERATED === '1') writeFileSync(file, text);
  expect(readFileSync(file, 'utf8')).toBe(text);
});

describe('marketplaceUrl refuses a query parameter exactly when MarketplaceQuery does', () => {
  const valid = { at: 'tkt', returnUrl: 'https://site.example/back', campaign: 'c', period: 'p' };
  /** The helper's name of a query parameter: the ticket is `at` on the wire. */
  const helperName = (name: string) => (name === 'at' ? 'ticket' : name);

  test.each(Object.keys(MarketplaceQuery.shape).flatMap((name) => [[name, undefined] as const, [name, ''] as const]))(
    '%s: %j',
    (name, value) => {
      const query: Record<string, string | undefined> = { ...valid, [name]: value };
      const schema = MarketplaceQuery.safeParse(query, { error: platformErrorMap });
      const params = Object.fromEntries(Object.entries(query).map(([k, v]) => [helperName(k), v]));
      let refused: unknown;
      try {
        marketplaceUrl('https://shop.example', { groupId: 'g', marketplaceId: 'm', ticket: '', ...params });
      } catch (error) {
        refused = error;
      }
      expect(refused === undefined).toBe(schema.success);
      if (schema.success) return;
      expect(refused).toBeInstanceOf(SignOnValidationError);
      expect((refused as SignOnValidationError).field).toBe(helperName(name));
      expect((refused as Error).message).toBe(`${helperName(name)}: ${schema.error.issues[0]?.message}`);
    },
  );
});
