// The element's two catalogs: the same keys (also a type error), the same {placeholders} in every message, and
// every message translated but for the few that read the same in both languages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { en } from '../../src/checkout/i18n/en.js';
import { format, type MessageKey } from '../../src/checkout/i18n/index.js';
import { vi } from '../../src/checkout/i18n/vi.js';
import { englishWords } from '../checkout/helpers/english.js';

/** Words Vietnamese takes as they are, and messages that are only placeholders and symbols. */
const SAME_IN_BOTH: MessageKey[] = ['lineQuantity', 'rate'];

const placeholders = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('vi has exactly the keys of en', () => {
  assert.deepEqual(Object.keys(vi).sort(), Object.keys(en).sort());
});

test('every message has the same placeholders in vi and en', () => {
  for (const key of Object.keys(en) as MessageKey[]) {
    assert.deepEqual(placeholders(vi[key]), placeholders(en[key]), `placeholders of ${key}`);
  }
});

test('every message is translated, and none is empty', () => {
  for (const key of Object.keys(en) as MessageKey[]) {
    assert.ok(en[key].trim() && vi[key].trim(), `${key} is empty`);
    if (!SAME_IN_BOTH.includes(key)) assert.notEqual(vi[key], en[key], `${key} is not translated`);
  }
});

test('format fills every placeholder it is given, in both languages', () => {
  for (const locale of ['vi', 'en'] as const) {
    for (const key of Object.keys(en) as MessageKey[]) {
      const params = Object.fromEntries(placeholders(en[key]).map((name) => [name, `<${name}>`]));
      assert.doesNotMatch(format(locale, key, params), /\{\w+\}/, `${locale}.${key} left a placeholder`);
    }
  }
});

test('no Vietnamese message holds an English word', () => {
  for (const key of Object.keys(vi) as MessageKey[]) {
    // `otherLanguage` is the switch's label: the name of English, in English (marked lang="en" by the element).
    if (key === 'otherLanguage') continue;
    assert.deepEqual(englishWords(vi[key].replace(/\{\w+\}/g, ' '), []), [], `vi.${key}: "${vi[key]}"`);
  }
});
