// What the QR encodes, and a wallet's reading of it back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SANDBOX_SEED_HEX } from '../../src/codecs/addresses.js';
import { parsePaymentUri as parseWith } from '../../src/codecs/uri.js';
import { addressesAt, paymentUri, sandboxNetworks } from '../helpers/networks.js';

const { eth, tron, btc } = addressesAt(DEFAULT_SANDBOX_SEED_HEX, 1);
const parsePaymentUri = (text: string) => parseWith(text, sandboxNetworks.all);

describe('payment URIs', () => {
  it('writes BIP21, EIP-681 (native and ERC-20) and the bare TRON address', () => {
    assert.equal(paymentUri({ asset: 'BTC', network: 'BITCOIN', address: btc, atomic: 1_234_500n }), `bitcoin:${btc}?amount=0.012345`);
    assert.equal(paymentUri({ asset: 'ETH', network: 'ETHEREUM', address: eth, atomic: 2_014_000_000_000_000_000n }), `ethereum:${eth}@11155111?value=2014000000000000000`);
    assert.equal(
      paymentUri({ asset: 'USDT', network: 'ETHEREUM', address: eth, atomic: 13_680_000n }),
      `ethereum:0xaA8E23Fb1079EA71e0a56F48a2aA51851D8433D0@11155111/transfer?address=${eth}&uint256=13680000`,
    );
    assert.equal(paymentUri({ asset: 'USDT', network: 'TRON', address: tron, atomic: 13_680_000n }), tron);
  });

  it('reads back what it writes', () => {
    for (const target of [
      { asset: 'BTC', network: 'BITCOIN', address: btc, atomic: 50_000n },
      { asset: 'ETH', network: 'ETHEREUM', address: eth, atomic: 10n ** 18n + 1n },
      { asset: 'USDT', network: 'ETHEREUM', address: eth, atomic: 1n },
    ] as const) {
      assert.deepEqual(parsePaymentUri(paymentUri(target)), target);
    }
    assert.deepEqual(parsePaymentUri(tron), { network: 'TRON', asset: 'USDT', address: tron });
  });

  it('reads the forms other wallets write', () => {
    assert.equal(parsePaymentUri(`ethereum:${eth}@11155111?value=2.014e18`).atomic, 2_014_000_000_000_000_000n);
    assert.equal(parsePaymentUri(`BITCOIN:${btc}?amount=1&label=Shop`).atomic, 100_000_000n);
    assert.equal(parsePaymentUri(`bitcoin:${btc}`).atomic, undefined);
  });

  it('refuses what it cannot pay', () => {
    for (const text of ['hello', `bitcoin:${btc}?req-fancy=1`, `ethereum:${eth}@1?value=1`, `ethereum:${eth}@11155111?value=1.5`, 'litecoin:abc', `ethereum:${eth}/approve?x=1`]) {
      assert.throws(() => parsePaymentUri(text), text);
    }
  });
});
