// Crypto amounts as the customer reads them: the gateway's decimal string with the locale's separators, the same
// grouping as VND (formatVnd), never through a float.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { formatCrypto, formatVnd } from '../../src/checkout/i18n/index.js';

test('vi writes a decimal comma and groups thousands with a dot, as it writes VND', () => {
  assert.equal(formatCrypto('vi', '20.22'), '20,22');
  assert.equal(formatCrypto('vi', '1234.000001'), '1.234,000001');
  assert.equal(formatCrypto('vi', '0.00012345'), '0,00012345');
  assert.equal(formatCrypto('vi', '530000'), formatVnd('vi', 530_000).replace(/\s₫$/, ''));
});

test('en keeps the decimal point and groups with a comma', () => {
  assert.equal(formatCrypto('en', '20.22'), '20.22');
  assert.equal(formatCrypto('en', '1234.5'), '1,234.5');
});

test('every digit the gateway wrote is kept, in order, whatever the amount', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.nat({ max: 18 }), (atomic, places) => {
      const digits = atomic.toString().padStart(places + 1, '0');
      const amount = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
      for (const locale of ['vi', 'en'] as const) {
        const shown = formatCrypto(locale, amount);
        const [group, point] = locale === 'vi' ? ['.', ','] : [',', '.'];
        assert.equal(shown.split(group).join('').replace(point, '.'), amount);
      }
    }),
  );
});

test('anything that is not a decimal string is shown as it came', () => {
  assert.equal(formatCrypto('vi', 'abc'), 'abc');
});
