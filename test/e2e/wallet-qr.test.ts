// The demo wallet's reading of a checkout QR and the shares it sends (demo/scripts/wallet/payment-qr.ts).
// No browser: these are the pure parts the wallet panel acts on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimalsOf, readPaymentQr as readQr, shareOf, uriNetworks } from '../../demo/scripts/wallet/payment-qr.js';
import type { ChainNetwork } from '../../src/contract/index.js';
import { paymentUri as uriOn, type UriNetwork } from '../../src/codecs/uri.js';
import { addressesAt, paymentUri, sandboxNetworks } from '../helpers/networks.js';

const { eth, tron, btc } = addressesAt('00112233445566778899aabbccddeeff', 7);
const readPaymentQr = (text: string) => readQr(text, sandboxNetworks.all);

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
  assert.throws(() => readPaymentQr(`ethereum:${eth}@1?value=1`), /chain 1 is not one this wallet holds/);
  assert.throws(() => readPaymentQr('hello'), /not a payment URI/);
});

/** The sandbox's networks as GET /sandbox/chain tells them, and an EVM network added by configuration. */
const chain: ChainNetwork[] = [
  ...sandboxNetworks.all.map((n) => ({
    network: n.id,
    name: n.name,
    family: n.family,
    source: 'simulated' as const,
    rpc_url: null,
    chain_id: n.chain_id ?? null,
    tip: 0,
    tip_hash: null,
    available: true,
    synced_at: null,
    confirmations: n.confirmations,
    explorer_url: n.explorer_url ?? null,
    explorer_tx_url: n.explorer_tx_url ?? null,
    assets: n.assets.map((a) => ({ ...a, label: a.asset, token_contract: a.token_contract ?? null, token_standard: a.token_standard ?? null })),
  })),
  {
    network: 'BSC_TESTNET',
    name: 'BNB Smart Chain Testnet',
    family: 'evm',
    source: 'node',
    rpc_url: 'https://bsc-testnet.example',
    chain_id: 97,
    tip: 0,
    tip_hash: null,
    available: true,
    synced_at: null,
    confirmations: 5,
    explorer_url: 'https://testnet.bscscan.com',
    explorer_tx_url: 'https://testnet.bscscan.com/tx/{hash}',
    assets: [
      { asset: 'BNB', decimals: 18, quote_decimals: 6, label: 'BNB', token_contract: null, token_standard: null },
      { asset: 'USDT', decimals: 18, quote_decimals: 2, label: 'USDT · BEP-20', token_contract: '0x337610d27c682E347C9cD60BD4b3b107C9d34dDd', token_standard: 'BEP-20' },
    ],
  },
];

test('reads QRs against the networks the gateway tells, a network added by configuration among them', () => {
  const networks: UriNetwork[] = uriNetworks(chain);
  const usdt = readQr(uriOn(networks.find((n) => n.id === 'BSC_TESTNET')!, { asset: 'USDT', address: eth, atomic: 14_240_000_000_000_000_000n }), networks);
  assert.deepEqual([usdt.network, usdt.asset, usdt.amount], ['BSC_TESTNET', 'USDT', '14.24']);
  const bnb = readQr(`ethereum:${eth}@97?value=5e15`, networks);
  assert.deepEqual([bnb.network, bnb.asset, bnb.amount], ['BSC_TESTNET', 'BNB', '0.005']);
  // The same as the embedded sandbox's own configuration reads them.
  const btcUri = paymentUri({ asset: 'BTC', network: 'BITCOIN', address: btc, atomic: 21_000n });
  assert.deepEqual(readQr(btcUri, networks), readPaymentQr(btcUri));
  assert.equal(decimalsOf('USDT', 'BSC_TESTNET', networks), 18);
  assert.equal(decimalsOf('USDT', 'TRON', networks), 6);
  assert.throws(() => decimalsOf('DOGE', 'TRON', networks), /DOGE is not on TRON/);
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
