/** The numeric options of the helpers, checked as the client checks its own. */
import { RequestValidationError } from '../errors.js';

/** Refuses an option that is not an integer from `min` to `max` before anything is sent, naming it. */
export function checkOption(name: string, value: unknown, min: number, max: number): void {
  if (Number.isInteger(value) && (value as number) >= min && (value as number) <= max) return;
  const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
  throw new RequestValidationError([
    { code: 'custom', path: name.split('.'), message: `Parameter must be an integer ${range}`, input: value },
  ]);
}
