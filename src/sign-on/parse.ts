// Parsing with the shared zod schemas, for the sign-on modules that already need zod (SSO tokens).
import type * as z from 'zod';
import { fieldOfIssue } from '../errors.js';
import { platformErrorMap, primaryIssue } from '../schemas/common.js';
import { SignOnValidationError } from './errors.js';

/**
 * Parses with a shared schema and turns the first issue into a {@link SignOnValidationError} worded
 * like the platform's errors. Only the field and the rule reach the message, never the input.
 */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  rename?: Record<string, string>,
): z.output<S> {
  const result = schema.safeParse(input, { error: platformErrorMap });
  if (result.success) return result.data;
  const issue = primaryIssue(result.error.issues);
  // An unknown key is named itself, as the platform's `unknown_parameter` names it.
  const raw = issue ? fieldOfIssue(issue) : '';
  const field = (rename?.[raw] ?? raw) || 'input';
  throw new SignOnValidationError(field, `${field}: ${issue?.message ?? 'invalid value'}`);
}
