/**
 * The statuses each route of the platform can answer by its own rules, read from the source with
 * the TypeScript compiler: from the route's handler (and guard), every function of this repository
 * it can reach, and in each the `new HttpError(<status>, ...)` it makes (a JSON error body), and the
 * answers it returns with a status of 300 or more (`{ status: 400, text }`, the shop's
 * `errorPage(<status>, ...)`, a redirect). What the core answers for every route (a refused
 * parameter, the token, the body's size, an unexpected failure) is not a route's own, and is not
 * counted here.
 *
 * An over-approximation by design: a function reached is counted whole, whichever branch the route
 * takes; only a `try` whose `catch` throws nothing is known to keep its errors in. A status that
 * is not a number literal is reported, not guessed.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What one route can answer by its own rules. */
export interface RouteStatuses {
  /** The entry of the endpoint table the route serves (its export name in `src/endpoints.ts`). */
  readonly entry: string;
  /** Statuses of the HttpErrors it can throw (answered with the common JSON error body). */
  readonly errors: ReadonlySet<number>;
  /** Statuses of 300 or more of the answers it returns itself (a page, a redirect, a body). */
  readonly results: ReadonlySet<number>;
  /** Where a status is not a number literal (file:line), which the analysis cannot read. */
  readonly unreadable: readonly string[];
  /** Where each status was found (file:line), for a reader of a failure. */
  readonly sources: ReadonlyMap<number, readonly string[]>;
}

/** Whether a declaration is this repository's own code (not a dependency, not a declaration file). */
function isOwn(node: ts.Node): boolean {
  const file = node.getSourceFile();
  return !file.isDeclarationFile && !file.fileName.includes('/node_modules/');
}

function where(node: ts.Node): string {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart());
  return `${file.fileName.slice(ROOT.length)}:${line + 1}`;
}

/** The function bodies a symbol stands for: a function, a method, or a variable holding an arrow function. */
function functionsOf(symbol: ts.Symbol | undefined, checker: ts.TypeChecker): ts.Node[] {
  if (!symbol) return [];
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const out: ts.Node[] = [];
  for (const d of target.declarations ?? []) {
    if (!isOwn(d)) continue;
    if (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || ts.isGetAccessorDeclaration(d)) out.push(d);
    else if (
      (ts.isVariableDeclaration(d) || ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d)) &&
      d.initializer &&
      (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))
    )
      out.push(d.initializer);
  }
  return out;
}

/** The name a symbol has where it is declared (an import's alias resolved). */
function nameOf(symbol: ts.Symbol | undefined, checker: ts.TypeChecker): string | undefined {
  if (!symbol) return undefined;
  return (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol).getName();
}

/** A number literal, or a `const` initialised with one. */
function numberOf(node: ts.Expression, checker: ts.TypeChecker): number | undefined {
  if (ts.isNumericLiteral(node)) return Number(node.text);
  const type = checker.getTypeAtLocation(node);
  return type.isNumberLiteral() ? type.value : undefined;
}

/** Whether `node` contains a `throw` statement. */
function throws(node: ts.Node): boolean {
  return ts.isThrowStatement(node) || (ts.forEachChild(node, (child) => throws(child) || undefined) ?? false);
}

/** The statuses reachable from `roots`. */
function statusesFrom(roots: readonly ts.Node[], checker: ts.TypeChecker): Omit<RouteStatuses, 'entry'> {
  const errors = new Set<number>();
  const results = new Set<number>();
  const unreadable: string[] = [];
  const seen = new Set<ts.Node>();
  const sources = new Map<number, string[]>();
  const found = (status: number, node: ts.Node) => {
    const list = sources.get(status) ?? [];
    if (!list.includes(where(node))) list.push(where(node));
    sources.set(status, list);
  };
  const add = (into: Set<number>, node: ts.Node, status: ts.Expression | undefined) => {
    const value = status && numberOf(status, checker);
    if (value === undefined) unreadable.push(where(node));
    else {
      into.add(value);
      found(value, node);
    }
  };
  const walk = (node: ts.Node): void => {
    // A type (`ReturnType<typeof f>`) runs nothing.
    if (ts.isTypeNode(node)) return;
    if (ts.isTryStatement(node) && node.catchClause && !throws(node.catchClause.block)) {
      // What the try block throws stays in: only the catch and finally blocks can answer.
      walk(node.catchClause.block);
      if (node.finallyBlock) walk(node.finallyBlock);
      return;
    }
    if (ts.isNewExpression(node) && nameOf(checker.getSymbolAtLocation(node.expression), checker) === 'HttpError')
      add(errors, node, node.arguments?.[0]);
    if (ts.isCallExpression(node) && nameOf(checker.getSymbolAtLocation(node.expression), checker) === 'errorPage')
      add(results, node, node.arguments[0]);
    // An answer's own status: `{ status: 303, headers }` (a property that is a number literal).
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'status') {
      const value = numberOf(node.initializer, checker);
      if (value !== undefined && value >= 300) {
        results.add(value);
        found(value, node);
      }
    }
    // Every function of this repository named here, called or passed on, is reached.
    if (ts.isIdentifier(node)) {
      for (const fn of functionsOf(checker.getSymbolAtLocation(node), checker)) {
        if (seen.has(fn)) continue;
        seen.add(fn);
        walk(fn);
      }
    }
    ts.forEachChild(node, walk);
  };
  for (const root of roots) walk(root);
  return { errors, results, unreadable, sources };
}

/** Every route of `mock/routes` that serves an entry of the endpoint table (`apiRoute(entry, ...)`), with the statuses it can answer. */
export function routeStatuses(): RouteStatuses[] {
  const program = ts.createProgram({
    rootNames: [`${ROOT}mock/routes/index.ts`],
    options: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    },
  });
  const checker = program.getTypeChecker();
  const out: RouteStatuses[] = [];
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(`${ROOT}mock/routes/`)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = nameOf(checker.getSymbolAtLocation(node.expression), checker);
        const [first, ...rest] = node.arguments;
        const entry = callee === 'apiRoute' && first ? nameOf(checker.getSymbolAtLocation(first), checker) : undefined;
        if (entry !== undefined) out.push({ entry, ...statusesFrom(rest, checker) });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return out;
}
