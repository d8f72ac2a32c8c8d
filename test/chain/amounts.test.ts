// Quote arithmetic: integers only, rounded up, on edge amounts for every asset.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { sandboxNetworks } from '../helpers/networks.js';
import { applySpread, formatAtomic, parseDecimal, quoteAtomic, vndForAtomic } from '../../src/codecs/amounts.js';

const RATES = { USDT: '26345.5', ETH: '88000000', BTC: '2500000000' } as const;

describe('amounts', () => {
  it('parses and formats decimal strings exactly', () => {
    assert.equal(parseDecimal('12.5', 6), 12_500_000n);
    assert.equal(parseDecimal('0.000000000000000001', 18), 1n);
    assert.equal(formatAtomic(12_500_000n, 6), '12.5');
    assert.equal(formatAtomic(0n, 8), '0');
    assert.equal(formatAtomic(10n ** 26n, 18), '100000000');
    for (const text of ['1e5', '-1', '.5', '1.', '1.0000001', '']) assert.throws(() => parseDecimal(text, 6), text);
  });

  it('quotes 1 VND and 5,000,000,000 VND in every asset, rounded up to the next atomic unit', () => {
    for (const { asset, decimals } of sandboxNetworks.assets) {
      const rate = RATES[asset as keyof typeof RATES];
      const { units, scale } = { units: parseDecimal(rate, 1), scale: 10n };
      for (const vnd of [1n, 5_000_000_000n]) {
        const quote = quoteAtomic(vnd, rate, decimals);
        // quote × rate covers the amount; one atomic unit less does not.
        const worth = (atomic: bigint) => atomic * units;
        const owed = vnd * 10n ** BigInt(decimals) * scale;
        assert.ok(worth(quote) >= owed, `${asset} ${vnd}`);
        assert.ok(worth(quote - 1n) < owed, `${asset} ${vnd} rounds up by at most one unit`);
        assert.equal(parseDecimal(formatAtomic(quote, decimals), decimals), quote);
        assert.ok(vndForAtomic(quote, rate, decimals) >= vnd - 0n);
      }
    }
    assert.equal(quoteAtomic(5_000_000_000n, RATES.BTC, 8), 200_000_000n, '5e9 VND at 2.5e9 VND/BTC is exactly 2 BTC');
    assert.equal(quoteAtomic(1n, RATES.ETH, 18), 11_363_636_364n);
  });

  it('lowers the rate by the spread without floats', () => {
    assert.equal(applySpread('26350', 50), '26218.25');
    assert.equal(applySpread('2600000000', 0), '2600000000');
    assert.equal(applySpread('3', 1), '2.9997');
  });

  it('keeps floats out of the money code', async () => {
    for (const file of ['amounts.ts', 'uri.ts', 'addresses.ts']) {
      const source = await readFile(new URL(`../../src/codecs/${file}`, import.meta.url), 'utf8');
      assert.doesNotMatch(source, /\bparseFloat\b|\bMath\.|\.toFixed\(|\bNumber\(/, file);
    }
  });
});
