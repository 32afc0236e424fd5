/** The runner's script: {@link run} and {@link reset} on `globalThis.platformDocsRunner`, for the controls. */
import { reset, run } from './runner.js';

Object.assign(globalThis, { platformDocsRunner: { run, reset } });
