// Receiving without private keys (docs/operations.md, "Keys"): one-time addresses derived from an account's extended
// public key, as a wallet exports it, are the addresses that wallet's seed derives; a payment to one is followed and
// paid like any other; a family without a key still derives from the seed; a private key given as one is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HDKey } from '@scure/bip32';
import { accountKeyFrom, deriveAddress, deriveKey, receivingKey, sandboxRootKey } from '../../src/codecs/addresses.js';
import { checkoutApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { loadConfig } from '../../src/sandbox/config.js';

/** The merchant's own wallet: its seed never reaches the gateway, only its accounts' extended public keys. */
const WALLET_SEED = '5eed0f7468652d6d65726368616e74732d6f776e2d77616c6c65742d2d2d2d21';
const wallet = sandboxRootKey(WALLET_SEED);
const VPUB = { private: 0x045f18bc, public: 0x045f1cf6 };
const bitcoinAccount = wallet.derive("m/84'/1'/0'");
const xpubs = {
  tron: wallet.derive("m/44'/195'/0'").publicExtendedKey,
  evm: wallet.derive("m/44'/60'/0'").publicExtendedKey,
  bitcoin: new HDKey({ ...bitcoinAccount, chainCode: bitcoinAccount.chainCode!, publicKey: bitcoinAccount.publicKey!, versions: VPUB }).publicExtendedKey,
};
const walletAddresses = (family: 'tron' | 'evm' | 'bitcoin') => Array.from({ length: 50 }, (_, i) => deriveAddress(wallet, family, i));

describe('addresses from extended public keys', () => {
  it('derives what the wallet derives, for every family, with no private key', () => {
    assert.match(xpubs.bitcoin, /^vpub/);
    const root = receivingKey(undefined, xpubs);
    for (const family of ['tron', 'evm', 'bitcoin'] as const) {
      for (const index of [0, 1, 7, 1234]) assert.equal(deriveAddress(root, family, index), deriveAddress(wallet, family, index), `${family} ${index}`);
      assert.equal(deriveKey(root, family, 0).privateKey, null);
    }
  });

  it('takes the families given from their keys and the others from the seed', () => {
    const seed = sandboxRootKey(loadConfig({}).payments.hdSeedHex);
    const root = receivingKey(loadConfig({}).payments.hdSeedHex, { tron: xpubs.tron });
    assert.equal(deriveAddress(root, 'tron', 3), deriveAddress(wallet, 'tron', 3));
    assert.equal(deriveAddress(root, 'evm', 3), deriveAddress(seed, 'evm', 3));
  });

  it('refuses a private key, a key that is not an account, and anything else, saying why', () => {
    assert.throws(() => accountKeyFrom(wallet.derive("m/44'/195'/0'").privateExtendedKey), /is a private key/);
    assert.throws(() => accountKeyFrom(wallet.derive("m/44'/195'/0'/0").publicExtendedKey), /depth 4/);
    assert.throws(() => accountKeyFrom('hello'), /must be an extended public key/);
    assert.throws(() => loadConfig({ HD_XPUB_EVM: 'xpub-not-really' }), /HD_XPUB_EVM/);
  });
});

describe(`a gateway receiving at an xpub's addresses (${storageName})`, () => {
  const gw = useTestGateway({ config: { payments: loadConfig({ HD_XPUB_TRON: xpubs.tron }).payments } });

  it("opens TRON payments at the wallet's addresses, follows them to paid, and ETHEREUM ones still from the seed", async () => {
    const link = await gw.client.createPaymentLink(sampleLink());
    const { body: payment } = await checkoutApi(gw.url, link.payment_link_ref).open('USDT', 'TRON');
    assert.ok(walletAddresses('tron').includes(payment.address), payment.address);
    await gw.gateway.wallet.transfer({ to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto });
    await gw.gateway.sandboxControls.mine(payment.confirmations_required, 'TRON');
    assert.equal((await checkoutApi(gw.url, link.payment_link_ref).view()).body.status, 'paid');

    const other = await gw.client.createPaymentLink(sampleLink());
    const { body: ether } = await checkoutApi(gw.url, other.payment_link_ref).open('ETH', 'ETHEREUM');
    assert.ok(!walletAddresses('evm').includes(ether.address));
    const seed = sandboxRootKey(gw.gateway.config.payments.hdSeedHex);
    assert.ok(Array.from({ length: 50 }, (_, i) => deriveAddress(seed, 'evm', i)).includes(ether.address));
  });
});
