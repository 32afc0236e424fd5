/**
 * The OpenAPI document as a reader meets it at each operation: an answer shared by many operations
 * is written once, in `components/responses`, and referred to (`$ref`); tests that read an
 * operation's answers follow the reference.
 */

const SHARED = '#/components/responses/';

/**
 * `doc` with each `$ref` to a shared answer replaced by that answer (a copy): the operations'
 * answers as a generator reads them. Throws on a reference to an answer the document lacks.
 */
export function withAnswersInline<T>(doc: T): T {
  const shared = ((doc as { components?: { responses?: Record<string, unknown> } }).components?.responses ??
    {}) as Record<string, unknown>;
  const inline = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(inline);
    if (value === null || typeof value !== 'object') return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith(SHARED)) {
      const answer = shared[ref.slice(SHARED.length)];
      if (answer === undefined) throw new Error(`${ref} names no answer of components.responses`);
      return structuredClone(answer);
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inline(item)]));
  };
  const { paths, ...rest } = doc as { paths?: unknown };
  return { ...rest, paths: inline(paths) } as T;
}
