// Every part of every catalog, for the gateway's pages and the tests. The element reads its words through index.ts
// (`format`, the script's part) and each chunk through its own module, which the builds give a registry of that part
// alone (scripts/locale-parts.ts): nothing of the element imports this module, so no bundle of it holds the pages' words.
import type { Locale, Words } from './index.js';
import type * as english from './locales/en.js';
import * as LOCALES from './locales.js';

/** Every language has every part of the catalog, with English's keys (a type error otherwise). */
export const catalogs: Record<Locale, { [Part in keyof typeof english]: Words<Part> }> = LOCALES;
