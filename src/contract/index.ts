export * from './fields.js';
export * from './payment-link.js';
export * from './refund.js';
export * from './token.js';
export * from './problem.js';
export * from './assets.js';
export * from './checkout.js';
export * from './sandbox.js';
