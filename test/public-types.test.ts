/**
 * `subscription-platform-sdk/types` has the type of every named schema of `src/schemas` (a capitalised
 * export: a resource, a request, an answer), under the schema's name, so a new schema's type cannot be
 * left out unnoticed. The SSO service's wire shapes are the only exception: a site reads them through
 * the SDK's sign-on helpers (`SsoResult`, `verifySsoSessionToken`), never as raw claims.
 */
import ts from 'typescript';
import { expect, test } from 'vitest';
import * as z from 'zod';
import * as schemas from '../src/schemas/index.js';

/** The SSO request tokens' claims, their `{ t }` envelope and identify's query: read by the helpers. */
const WIRE_ONLY = new Set([
  'SsoEnvelope',
  'SsoRequestClaims',
  'SsoIdentifyClaims',
  'SsoCreateSessionClaims',
  'SsoSessionStatusClaims',
  'SsoAuthenticateClaims',
  'SsoLogoutClaims',
  'SsoIdentifyQuery',
  'MarketplaceQuery',
]);

/**
 * The names `src/types.ts` exports as types, as the compiler reads the module. Its `export type *`
 * re-exports a schema module's value names too (type-only): a schema whose type is not declared
 * beside it is exported so, as a value's name, and is not counted here.
 */
function exportedTypes(): Set<string> {
  const file = new URL('../src/types.ts', import.meta.url).pathname;
  const program = ts.createProgram([file], {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const symbol = source && checker.getSymbolAtLocation(source);
  const exports = symbol ? checker.getExportsOfModule(symbol) : [];
  const isType = (s: ts.Symbol) =>
    ((s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags & ts.SymbolFlags.Type) !== 0;
  return new Set(exports.filter(isType).map((s) => s.name));
}

const exported = exportedTypes();

test.each(
  Object.entries(schemas)
    .filter(([name, value]) => /^[A-Z]/.test(name) && value instanceof z.ZodType && !WIRE_ONLY.has(name))
    .map(([name]) => [name]),
)('%s has its type in subscription-platform-sdk/types', (name) => {
  expect(exported.has(name)).toBe(true);
});

test('the exceptions are schemas that exist', () => {
  for (const name of WIRE_ONLY) expect(Object.keys(schemas)).toContain(name);
});
