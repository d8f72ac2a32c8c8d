// The catalogs, one file a language (src/checkout/i18n/locales/), each with the script's part, the chunks' (later,
// wallet, exchange) and the gateway's pages' (page, receipt, claim): in every language of the registry the keys of English (also a type error), the
// same {placeholders} in every message, and every message translated but for the few that read the same everywhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogs } from '../../src/checkout/i18n/catalogs.js';
import { fill, format, locales, type Locale, type MessageKey } from '../../src/checkout/i18n/index.js';
import { later, type LaterKey } from '../../src/checkout/i18n/later.js';
import { englishWords } from '../checkout/helpers/english.js';

/** Words Vietnamese takes as they are, and messages that are only placeholders and symbols. */
const SAME_IN_BOTH: string[] = ['lineQuantity', 'rate'];

const placeholders = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

type Words = Record<string, string>;
type Part = keyof (typeof catalogs)['en'];
/** How each part's words are read: the script's and the later chunk's through their own functions, the others by fill(). */
const READ: Partial<Record<Part, (locale: Locale, key: string, params: Record<string, string>) => string>> = {
  script: (locale, key, params) => format(locale, key as MessageKey, params),
  later: (locale, key, params) => later(locale, key as LaterKey, params),
};
const PARTS = (Object.keys(catalogs.en) as Part[]).map((name) => ({
  name,
  words: (locale: Locale) => catalogs[locale][name] as Words,
  format: READ[name] ?? ((locale: Locale, key: string, params: Record<string, string>) => fill((catalogs[locale][name] as Words)[key]!, params)),
}));
const others = locales.filter((locale) => locale !== 'en');

test('the registry has the gateway\'s two languages, English first, each with every part', () => {
  assert.deepEqual(locales, ['en', 'vi']);
  assert.deepEqual(PARTS.map((part) => part.name), ['claim', 'exchange', 'hosted', 'later', 'receipt', 'script', 'wallet']);
  for (const locale of locales) assert.deepEqual(Object.keys(catalogs[locale]).sort(), Object.keys(catalogs.en).sort());
});

for (const part of PARTS) {
  const en = part.words('en');
  for (const locale of others) {
    const words = part.words(locale);
    test(`${part.name}: ${locale} has exactly the keys of en`, () => {
      assert.deepEqual(Object.keys(words).sort(), Object.keys(en).sort());
    });

    test(`${part.name}: every message has the same placeholders in ${locale} and en`, () => {
      for (const key of Object.keys(en)) assert.deepEqual(placeholders(words[key]!), placeholders(en[key]!), `placeholders of ${key}`);
    });

    test(`${part.name}: every message is translated into ${locale}, and none is empty`, () => {
      for (const key of Object.keys(en)) {
        assert.ok(en[key]!.trim() && words[key]!.trim(), `${key} is empty`);
        if (!SAME_IN_BOTH.includes(key)) assert.notEqual(words[key], en[key], `${key} is not translated`);
      }
    });
  }

  test(`${part.name}: format fills every placeholder it is given, in every language`, () => {
    for (const locale of locales) {
      for (const key of Object.keys(en)) {
        const params = Object.fromEntries(placeholders(en[key]!).map((name) => [name, `<${name}>`]));
        assert.doesNotMatch(part.format(locale, key, params), /\{\w+\}/, `${locale}.${key} left a placeholder`);
      }
    }
  });

  test(`${part.name}: no Vietnamese message holds an English word`, () => {
    const vi = part.words('vi');
    for (const key of Object.keys(vi)) assert.deepEqual(englishWords(vi[key]!.replace(/\{\w+\}/g, ' '), []), [], `vi.${key}: "${vi[key]}"`);
  });
}

test("the element's parts share no key: each word lives where its view is", () => {
  const keys = PARTS.filter((part) => ['script', 'later', 'wallet', 'exchange'].includes(part.name)).flatMap((part) => Object.keys(part.words('en')));
  assert.deepEqual(keys.filter((key, i) => keys.indexOf(key) !== i), []);
});

test('the language switch names each language in itself', () => {
  assert.deepEqual(Object.fromEntries(locales.map((locale) => [locale, format(locale, 'language')])), { en: 'English', vi: 'Tiếng Việt' });
});
