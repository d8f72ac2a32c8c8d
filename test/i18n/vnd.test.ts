// formatVnd writes VND without Intl (its first use costs the order summary's paint): it must write exactly what
// Intl.NumberFormat writes, in both languages, for every whole amount and every decimal string (a rate).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { formatVnd, type Locale } from '../../src/checkout/i18n/index.js';

const LOCALES: Locale[] = ['vi', 'en'];
const intl = (locale: Locale, amount: number | `${number}`) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'VND', maximumFractionDigits: 0 }).format(amount);

test('formatVnd writes what the element showed before: 530.000 ₫ and ₫530,000', () => {
  assert.equal(formatVnd('vi', 530_000), '530.000\u00a0₫');
  assert.equal(formatVnd('en', 530_000), '₫530,000');
  assert.equal(formatVnd('vi', -1_234_567), '-1.234.567\u00a0₫');
  assert.equal(formatVnd('en', '25432.5'), '₫25,433');
});

test('formatVnd matches Intl.NumberFormat for every safe integer', () => {
  fc.assert(
    fc.property(fc.constantFrom(...LOCALES), fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -100_000, max: 100_000 })), (locale, amount) => {
      assert.equal(formatVnd(locale, amount), intl(locale, amount));
    }),
    { numRuns: 2_000 },
  );
});

test('formatVnd matches Intl.NumberFormat for decimal strings, rounding half away from zero as Intl does', () => {
  const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
  const decimal = fc
    .tuple(fc.constantFrom('', '-'), digits(1, 20), fc.option(digits(1, 12), { nil: undefined }))
    .map(([sign, whole, fraction]) => `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}` as `${number}`);
  fc.assert(
    fc.property(fc.constantFrom(...LOCALES), decimal, (locale, amount) => {
      assert.equal(formatVnd(locale, amount), intl(locale, amount));
    }),
    { numRuns: 2_000, examples: [['vi', '0.5'], ['en', '999.5'], ['vi', '-0.4'], ['en', '0049.49'], ['vi', '99999.5']] },
  );
});
