/**
 * Code that makes `msw` (and `msw/...`) impossible to find, with the error Node gives for a missing
 * package: what a project that never installed msw meets. For `node --import` (ES modules) and
 * `node --require` (CommonJS).
 */

/** Module hooks: `msw` cannot be found. */
const HOOKS = `export async function resolve(specifier, context, next) {
  if (specifier === 'msw' || specifier.startsWith('msw/')) {
    const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;

/** An ES module that registers the hooks. */
const HIDE_MSW_ESM = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}));`;

/** The hooks' registration as a `data:` URL for `node --import`. */
export const HIDE_MSW_ESM_URL = `data:text/javascript,${encodeURIComponent(HIDE_MSW_ESM)}`;

/** A CommonJS file's text for `node --require`: `require('msw')` fails as for a missing module. */
export const HIDE_MSW_CJS = `const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'msw' || request.startsWith('msw/')) {
    const error = new Error("Cannot find module '" + request + "'");
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, ...rest);
};`;
