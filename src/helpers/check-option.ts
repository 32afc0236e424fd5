/** The options of the helpers, checked as the client checks its own. */
import { RequestValidationError } from '../errors.js';
import { CallOptions } from '../options.js';
import type { RequestOptions } from '../request.js';

/** Refuses an option that is not an integer from `min` to `max` before anything is sent, naming it. */
export function checkOption(name: string, value: unknown, min: number, max: number): void {
  if (Number.isInteger(value) && (value as number) >= min && (value as number) <= max) return;
  const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
  throw new RequestValidationError([
    { code: 'custom', path: name.split('.'), message: `Parameter must be an integer ${range}`, input: value },
  ]);
}

/**
 * Checks a run's own signal and the request options it gives each of its calls, once, before the
 * run sends anything: a mistake (a typo, `signal: controller`) refuses the run at once, as it would
 * refuse a call, rather than failing each call of the run, or reading as an abort. The signal, or
 * `undefined` when none.
 */
export function checkRunOptions(signal: unknown, requestOptions: RequestOptions): AbortSignal | undefined {
  const checkedSignal = CallOptions.shape.signal.safeParse(signal);
  if (!checkedSignal.success)
    throw new RequestValidationError(checkedSignal.error.issues.map((issue) => ({ ...issue, path: ['signal'] })));
  const checked = CallOptions.safeParse(requestOptions);
  if (!checked.success) throw new RequestValidationError(checked.error.issues);
  return checkedSignal.data ?? undefined;
}
