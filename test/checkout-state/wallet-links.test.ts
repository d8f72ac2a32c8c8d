// The wallet links for a phone, only where an app can open them, in each wallet's documented form; wallets whose
// links name no network only where they cannot send real coins to a test address. No bare `tron:` (no exchange app opens it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { walletLinks } from '../../src/checkout/wallet-links.js';
import { payment } from './fixtures.js';

const TRON_USDT = { token_standard: 'TRC-20', token_contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' };
const NATIVE = { token_standard: null, token_contract: null };
const ERC20 = { token_standard: 'ERC-20', token_contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7' };
const ADDRESS_EVM = '0x52908400098527886E0F7030069857D2E4169EE7';

const byName = (links: { name: string; href: string }[]) => Object.fromEntries(links.map((l) => [l.name || new URL(l.href).protocol, l.href]));

test('USDT on TRON: no tron: link on any network; Trust Wallet on the main network', () => {
  const tron = payment({ network: 'TRON', address: 'TXYZaddress', payment_uri: 'TXYZaddress' });
  assert.deepEqual(walletLinks(tron, TRON_USDT, '20.22', false), []);
  const links = byName(walletLinks(tron, TRON_USDT, '20.22', true));
  const trust = new URL(links['Trust Wallet']!);
  assert.equal(trust.origin + trust.pathname, 'https://link.trustwallet.com/send');
  assert.deepEqual(Object.fromEntries(trust.searchParams), { asset: `c195_t${TRON_USDT.token_contract}`, address: 'TXYZaddress', amount: '20.22' });
  assert.deepEqual(Object.keys(links), ['Trust Wallet'], 'no TronLink: its transfer link is for whitelisted DApps only');
});

test('a token without a contract gets no link that names only a coin: it would send the chain’s own', () => {
  const tron = payment({ network: 'TRON', address: 'TXYZ', payment_uri: 'TXYZ' });
  assert.deepEqual(walletLinks(tron, { token_standard: 'TRC-20', token_contract: null }, '1', true), []);
});

test('Ethereum: the EIP-681 URI first, MetaMask on any chain (the URI carries it), Trust Wallet on chain 1 only', () => {
  const sepolia = payment({ network: 'ETHEREUM', address: ADDRESS_EVM, payment_uri: `ethereum:${ADDRESS_EVM}@11155111?value=1e16` });
  assert.deepEqual(walletLinks(sepolia, NATIVE, '0.01', true), [
    { name: '', href: sepolia.payment_uri },
    { name: 'MetaMask', href: `https://link.metamask.io/send/${ADDRESS_EVM}@11155111?value=1e16` },
  ]);
  const mainToken = payment({ network: 'ETHEREUM', address: ADDRESS_EVM, payment_uri: `ethereum:${ERC20.token_contract}@1/transfer?address=${ADDRESS_EVM}&uint256=20220000` });
  const links = byName(walletLinks(mainToken, ERC20, '20.22', true));
  assert.equal(links['ethereum:'], mainToken.payment_uri);
  assert.equal(links.MetaMask, `https://link.metamask.io/send/${ERC20.token_contract}@1/transfer?address=${ADDRESS_EVM}&uint256=20220000`);
  assert.deepEqual(Object.fromEntries(new URL(links['Trust Wallet']!).searchParams), { asset: `c60_t${ERC20.token_contract}`, address: ADDRESS_EVM, amount: '20.22' });
});

test('Bitcoin: the BIP21 URI; Trust Wallet on the main network', () => {
  const btc = payment({ network: 'BITCOIN', address: 'bc1qxyz', payment_uri: 'bitcoin:bc1qxyz?amount=0.001' });
  assert.deepEqual(walletLinks(btc, NATIVE, '0.001', false), [{ name: '', href: 'bitcoin:bc1qxyz?amount=0.001' }]);
  assert.deepEqual(Object.fromEntries(new URL(byName(walletLinks(btc, NATIVE, '0.001', true))['Trust Wallet']!).searchParams), { asset: 'c0', address: 'bc1qxyz', amount: '0.001' });
});

test('every link carries the address, whatever the asset', () => {
  for (const [network, uri, asset] of [['TRON', 'TADDR', TRON_USDT], ['ETHEREUM', `ethereum:${ADDRESS_EVM}@1?value=1`, NATIVE], ['BITCOIN', 'bitcoin:bc1qaddr', NATIVE]] as const) {
    const address = network === 'TRON' ? 'TADDR' : network === 'BITCOIN' ? 'bc1qaddr' : ADDRESS_EVM;
    const links = walletLinks(payment({ network, address, payment_uri: uri }), asset, '1', true);
    assert.ok(links.length >= 1, network);
    for (const link of links) assert.ok(decodeURIComponent(link.href).includes(address), `${link.name || link.href}: ${link.href}`);
  }
});
