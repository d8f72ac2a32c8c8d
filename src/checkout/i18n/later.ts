// The words of the views in the chunk beside the script (views/later.ts): paid, paid late, expired, a late transfer,
// the receipt. They travel with those views, not with the script's words: each catalog's `later` part (locales/en.ts),
// which the builds keep in this chunk (scripts/locale-parts.ts).
import { fill, type Locale, type Params } from './index.js';
import * as LOCALES from './locales.js';

export type LaterKey = keyof typeof LOCALES.en.later;

/** The message of `key` in `locale`, its `{placeholders}` filled (as format() does for the script's words). */
export const later = (locale: Locale, key: LaterKey, params?: Params): string => fill(LOCALES[locale].later[key], params);
