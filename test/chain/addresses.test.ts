// One-time addresses against published vectors: BIP32, BIP44/BIP84 paths, EIP-55, TRON base58check, bech32.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import {
  DEFAULT_SANDBOX_SEED_HEX,
  deriveAddress,
  encodeAddress,
  isValidAddress,
  sandboxRootKey,
  toChecksumAddress,
} from '../../src/codecs/addresses.js';

/** BIP39's seed from a mnemonic without a passphrase: PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic". */
const bip39Seed = (mnemonic: string) => pbkdf2(sha512, mnemonic.normalize('NFKD'), 'mnemonic', { c: 2048, dkLen: 64 });
const ABANDON = bip39Seed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about');

describe('HD derivation', () => {
  it('matches BIP32 test vector 1', () => {
    const root = HDKey.fromMasterSeed(hexToBytes('000102030405060708090a0b0c0d0e0f'));
    assert.equal(
      root.privateExtendedKey,
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
    );
    assert.equal(
      root.derive("m/0'/1/2'/2/1000000000").publicExtendedKey,
      'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy',
    );
  });

  it('matches BIP32 test vector 2', () => {
    const root = HDKey.fromMasterSeed(
      hexToBytes(
        'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542',
      ),
    );
    assert.equal(
      root.derive("m/0/2147483647'/1/2147483646'/2").privateExtendedKey,
      'xprvA2nrNbFZABcdryreWet9Ea4LvTJcGsqrMzxHx98MMrotbir7yrKCEXw7nadnHM8Dq38EGfSh6dqA9QWTyefMLEcBYJUuekgW4BYPJcr9E7j',
    );
  });

  it('gives the published first addresses of the "abandon … about" wallet on each path', () => {
    const root = HDKey.fromMasterSeed(ABANDON);
    assert.equal(deriveAddress(root, 'evm', 0), '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'); // m/44'/60'/0'/0/0
    assert.equal(deriveAddress(root, 'tron', 0), 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH'); // m/44'/195'/0'/0/0
    // BIP84's own vector (mainnet m/84'/0'/0'/0/0); the sandbox's testnet path differs only in coin type and prefix.
    assert.equal(encodeAddress('bitcoin', root.derive("m/84'/0'/0'/0/0").publicKey!, 'bc'), 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
  });

  it('derives 2,000 distinct, valid addresses per network', () => {
    const root = sandboxRootKey(DEFAULT_SANDBOX_SEED_HEX);
    for (const network of ['tron', 'evm', 'bitcoin'] as const) {
      const addresses = new Set<string>();
      for (let index = 0; index < 2_000; index++) addresses.add(deriveAddress(root, network, index));
      assert.equal(addresses.size, 2_000, network);
      for (const address of [...addresses].slice(0, 50)) assert.ok(isValidAddress(network, address), address);
    }
  });

  it('takes an extended private key as well as a seed', () => {
    const root = sandboxRootKey(DEFAULT_SANDBOX_SEED_HEX);
    assert.equal(deriveAddress(sandboxRootKey(root.privateExtendedKey), 'tron', 7), deriveAddress(root, 'tron', 7));
    assert.throws(() => sandboxRootKey('not hex'), /HD seed/);
  });
});

describe('address formats', () => {
  it('writes EIP-55 checksums as the examples of EIP-55 do', () => {
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      assert.equal(toChecksumAddress(address.toLowerCase()), address);
      assert.ok(isValidAddress('evm', address));
    }
  });

  it('refuses an EIP-55 address with one letter of the wrong case', () => {
    assert.equal(isValidAddress('evm', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'), false);
    assert.ok(isValidAddress('evm', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'), 'all lower case carries no checksum');
  });

  it('refuses a TRON address with a changed character or another prefix', () => {
    assert.ok(isValidAddress('tron', 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH'));
    assert.equal(isValidAddress('tron', 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdJ'), false);
    assert.equal(isValidAddress('tron', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'), false, 'a Bitcoin base58check address');
  });

  it('takes only testnet P2WPKH bech32 for Bitcoin', () => {
    const address = deriveAddress(sandboxRootKey(DEFAULT_SANDBOX_SEED_HEX), 'bitcoin', 0);
    assert.match(address, /^tb1q[02-9ac-hj-np-z]{38}$/);
    assert.equal(isValidAddress('bitcoin', `${address.slice(0, -1)}${address.endsWith('q') ? 'p' : 'q'}`), false);
    assert.equal(isValidAddress('bitcoin', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'), false, 'mainnet');
  });
});
