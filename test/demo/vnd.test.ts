// VND typed and shown as the page's language writes it (demo/scripts/lib/vnd.ts): what a page shows, it reads back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatVnd, groupVnd, parseVnd, type PageLanguage } from '../../demo/scripts/lib/vnd.js';

describe('VND in the page’s language', () => {
  it('reads either grouping, spaces and plain digits, with or without the sign: VND has no decimals to mistake them for', () => {
    for (const text of ['100.000', '100,000', '100000', '100 000', '100.000 ₫', '₫100,000', '100000đ', '100.000 VND', ' 100.000 ']) assert.equal(parseVnd(text), 100_000, text);
    assert.equal(parseVnd('1.234.567'), 1_234_567);
    assert.equal(parseVnd('1,234,567'), 1_234_567);
  });

  it('refuses what it would have to guess: decimals, broken groups, mixed separators, signs, letters', () => {
    for (const text of ['100.5', '100,50', '1.00.000', '10.0000', '1.000,000', '1,000.000', '', 'abc', '-100', '1e5', '.000']) assert.equal(parseVnd(text), undefined, text);
  });

  it('reads back every amount it shows, in both languages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom<PageLanguage>('vi', 'en'), (amount, language) => {
        assert.equal(parseVnd(formatVnd(amount, language)), amount);
        assert.equal(parseVnd(groupVnd(amount, language)), amount);
      }),
    );
    assert.equal(formatVnd(530_000, 'vi'), '530.000\u00a0₫');
    assert.equal(formatVnd(530_000, 'en'), '₫530,000');
  });
});
