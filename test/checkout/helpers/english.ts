// Telling English words in the Vietnamese UI: no English word shows in the Vietnamese UI.
// English is every word of the English catalog and a few more the gateway and the chains use; Vietnamese takes a
// few words as they are, and tickers, token standards and network names are names, the same in every language.
import * as LOCALES from '../../../src/checkout/i18n/locales.js';

/** Words Vietnamese uses as they are. */
const SHARED = new Set(['email', 'qr', 'example', 'com', 'pdf']);
/** Tickers, token standards and chain names. */
const NAMES = new Set(['usdt', 'eth', 'btc', 'trc', 'erc', 'tron', 'ethereum', 'sepolia', 'bitcoin']);
/** English the gateway, the chains or the platform bring in, beside the catalog's own words. */
const MORE = ['sandbox', 'testnet', 'network', 'the', 'and', 'with', 'already', 'has', 'http', 'not', 'found', 'vn', 'powered', 'help'];

const words = (text: string) => text.toLowerCase().match(/\p{L}+/gu) ?? [];

// A language's name is a name: "English" labels its button in every language (marked lang="en").
const { language: _name, ...script } = LOCALES.en.script;
const ENGLISH = new Set(
  [...[...Object.values(script), ...Object.values(LOCALES.en.later), ...Object.values(LOCALES.en.wallet)].flatMap((message) => words(message.replace(/\{\w+\}/g, ' ')).filter((w) => w.length >= 3 && /^[a-z]+$/.test(w))), ...MORE].filter(
    (w) => !SHARED.has(w) && !NAMES.has(w),
  ),
);

/**
 * The English words of `text` once `allowed` strings (the merchant's own texts, addresses, hashes) are taken out.
 * `pay-checkout` is the product's name.
 */
export function englishWords(text: string, allowed: readonly string[]): string[] {
  let rest = text.replaceAll('pay-checkout', ' ');
  for (const value of allowed) if (value) rest = rest.replaceAll(value, ' ');
  return words(rest).filter((w) => ENGLISH.has(w));
}
