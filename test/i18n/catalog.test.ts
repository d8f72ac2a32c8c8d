// The element's catalogs, the script's (en.ts, vi.ts) and the chunks' (later.ts, wallets/browser-wallet.ts): the same keys in both languages
// (also a type error), the same {placeholders} in every message, and every message translated but for the few that
// read the same in both languages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { en } from '../../src/checkout/i18n/en.js';
import { format, type MessageKey } from '../../src/checkout/i18n/index.js';
import { later, laterCatalogs, type LaterKey } from '../../src/checkout/i18n/later.js';
import { vi } from '../../src/checkout/i18n/vi.js';
import { walletCatalogs } from '../../src/checkout/wallets/browser-wallet.js';
import { fill } from '../../src/checkout/i18n/index.js';
import { englishWords } from '../checkout/helpers/english.js';

/** Words Vietnamese takes as they are, and messages that are only placeholders and symbols. */
const SAME_IN_BOTH: string[] = ['lineQuantity', 'rate'];

const placeholders = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

const CATALOGS = [
  { name: 'script', en: en as Record<string, string>, vi: vi as Record<string, string>, format: (locale: 'vi' | 'en', key: string, params: Record<string, string>) => format(locale, key as MessageKey, params) },
  { name: 'chunk', en: laterCatalogs.en as Record<string, string>, vi: laterCatalogs.vi as Record<string, string>, format: (locale: 'vi' | 'en', key: string, params: Record<string, string>) => later(locale, key as LaterKey, params) },
  { name: 'wallet chunk', en: walletCatalogs.en as Record<string, string>, vi: walletCatalogs.vi as Record<string, string>, format: (locale: 'vi' | 'en', key: string, params: Record<string, string>) => fill(walletCatalogs[locale][key as keyof typeof walletCatalogs.en], params) },
];

for (const catalog of CATALOGS) {
  test(`${catalog.name}: vi has exactly the keys of en`, () => {
    assert.deepEqual(Object.keys(catalog.vi).sort(), Object.keys(catalog.en).sort());
  });

  test(`${catalog.name}: every message has the same placeholders in vi and en`, () => {
    for (const key of Object.keys(catalog.en)) {
      assert.deepEqual(placeholders(catalog.vi[key]!), placeholders(catalog.en[key]!), `placeholders of ${key}`);
    }
  });

  test(`${catalog.name}: every message is translated, and none is empty`, () => {
    for (const key of Object.keys(catalog.en)) {
      assert.ok(catalog.en[key]!.trim() && catalog.vi[key]!.trim(), `${key} is empty`);
      if (!SAME_IN_BOTH.includes(key)) assert.notEqual(catalog.vi[key], catalog.en[key], `${key} is not translated`);
    }
  });

  test(`${catalog.name}: format fills every placeholder it is given, in both languages`, () => {
    for (const locale of ['vi', 'en'] as const) {
      for (const key of Object.keys(catalog.en)) {
        const params = Object.fromEntries(placeholders(catalog.en[key]!).map((name) => [name, `<${name}>`]));
        assert.doesNotMatch(catalog.format(locale, key, params), /\{\w+\}/, `${locale}.${key} left a placeholder`);
      }
    }
  });

  test(`${catalog.name}: no Vietnamese message holds an English word`, () => {
    for (const key of Object.keys(catalog.vi)) {
      // `otherLanguage` is the switch's label: the name of English, in English (marked lang="en" by the element).
      if (key === 'otherLanguage') continue;
      assert.deepEqual(englishWords(catalog.vi[key]!.replace(/\{\w+\}/g, ' '), []), [], `vi.${key}: "${catalog.vi[key]}"`);
    }
  });
}

test('the two catalogs share no key: each word lives where its view is', () => {
  assert.deepEqual(Object.keys(laterCatalogs.en).filter((key) => key in en), []);
});
