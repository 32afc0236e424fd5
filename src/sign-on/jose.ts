/**
 * The part of jose the SSO tokens use, in a module of its own so that `sso-token.ts` can load it on
 * first use (`import('./jose.js')`) and a bundler still keeps only these three of jose's exports.
 */
export { errors, jwtVerify, SignJWT } from 'jose';
