// The demo wallet's reading of a checkout QR and the shares it sends (demo/scripts/wallet/payment-qr.ts).
// No browser: these are the pure parts the wallet panel acts on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readPaymentQr, shareOf } from '../../demo/scripts/wallet/payment-qr.js';
import { deriveAddress, sandboxRootKey } from '../../src/sandbox/chain/addresses.js';
import { paymentUri } from '../../src/sandbox/chain/uri.js';

const root = sandboxRootKey('00112233445566778899aabbccddeeff');
const tron = deriveAddress(root, 'TRON', 7);
const eth = deriveAddress(root, 'ETHEREUM', 7);
const btc = deriveAddress(root, 'BITCOIN', 7);

test('reads what the gateway puts in each QR: amount as a decimal in the coin, or none for TRON', () => {
  assert.deepEqual(readPaymentQr(paymentUri({ asset: 'BTC', network: 'BITCOIN', address: btc, atomic: 21_000n })), {
    uri: `bitcoin:${btc}?amount=0.00021`,
    network: 'BITCOIN',
    asset: 'BTC',
    address: btc,
    amount: '0.00021',
  });
  const usdt = readPaymentQr(paymentUri({ asset: 'USDT', network: 'ETHEREUM', address: eth, atomic: 20_215_322n }));
  assert.deepEqual([usdt.asset, usdt.network, usdt.address, usdt.amount], ['USDT', 'ETHEREUM', eth, '20.215322']);
  const ether = readPaymentQr(paymentUri({ asset: 'ETH', network: 'ETHEREUM', address: eth, atomic: 5_790_000_000_000_000n }));
  assert.deepEqual([ether.asset, ether.amount], ['ETH', '0.00579']);
  const bare = readPaymentQr(` ${paymentUri({ asset: 'USDT', network: 'TRON', address: tron, atomic: 1n })}\n`);
  assert.deepEqual(bare, { uri: tron, network: 'TRON', asset: 'USDT', address: tron });
});

test('a bare Ethereum address leaves the coin open; anything else is refused with a reason', () => {
  assert.deepEqual(readPaymentQr(eth), { uri: eth, network: 'ETHEREUM', address: eth });
  assert.throws(() => readPaymentQr('https://shop.example/pay'), /unsupported payment URI scheme "https:"/);
  assert.throws(() => readPaymentQr(`ethereum:${eth}@1?value=1`), /not Sepolia/);
  assert.throws(() => readPaymentQr('hello'), /not a payment URI/);
});

test('shares are whole atomic units, rounded up, without floats', () => {
  assert.equal(shareOf('20.215321', 6, 100), '20.215321');
  assert.equal(shareOf('20.215321', 6, 50), '10.107661');
  assert.equal(shareOf('20.215321', 6, 110), '22.236854');
  assert.equal(shareOf('0.00021', 8, 50), '0.000105');
  assert.equal(shareOf('0.000000000000000001', 18, 50), '0.000000000000000001');
  assert.throws(() => shareOf('1.0000001', 6, 100), /more than 6 decimal places/);
  assert.throws(() => shareOf('abc', 6, 100), /not a decimal number/);
  assert.throws(() => shareOf('1', 6, 0), /whole, positive percentage/);
});
