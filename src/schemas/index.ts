export * from './authorization.js';
export * from './common.js';
export * from './orders.js';
export * from './products.js';
export * from './sign-on.js';
