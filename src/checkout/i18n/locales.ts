// The languages of the element, the gateway's pages and the demo: one line each, naming the language's one catalog
// file (docs/i18n.md says how to add one). The builds of the element give each module that reads it a registry of
// the part it reads (scripts/locale-parts.ts), so that each chunk's part of a catalog stays in that chunk.
export * as en from './locales/en.js';
export * as vi from './locales/vi.js';
