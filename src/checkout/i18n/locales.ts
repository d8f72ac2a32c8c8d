// The languages of the element, the gateway's pages and the demo: one line each, naming the language's one catalog
// file (docs/i18n.md says how to add one). The script-tag build keeps each chunk's part of a catalog in that chunk
// (vite.config.ts, localeParts).
export * as en from './locales/en.js';
export * as vi from './locales/vi.js';
