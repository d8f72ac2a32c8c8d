// The network families' registries (src/codecs/families/index.ts and wallets.ts, src/sandbox/chains/families.ts): every
// family of the contract's list has a module with every part the rest of the code asks it for, and its parts agree
// with each other (what it writes it reads back; its addresses are no other family's).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SANDBOX_SEED_HEX, deriveAddress, sandboxRootKey } from '../../src/codecs/addresses.js';
import { FAMILIES, FAMILY_NAMES, type Family } from '../../src/codecs/families/index.js';
import { WALLETS, walletOf } from '../../src/codecs/families/wallets.js';
import { parsePaymentUri, paymentUri } from '../../src/codecs/uri.js';
import { NETWORK_FAMILIES } from '../../src/contract/index.js';
import { GATEWAY_FAMILIES } from '../../src/sandbox/chains/families.js';
import { sandboxNetworks } from '../helpers/networks.js';

/** The parts of a family module (codecs/families/family.ts) every family must have, by what each must be. */
const PARTS: Record<Exclude<keyof Family, 'parsePaymentUri'>, (value: unknown) => boolean> = {
  coinPath: (v) => typeof v === 'string' && /^m\/\d+'\/\d+'$/.test(v),
  encodeAddress: (v) => typeof v === 'function',
  isValidAddress: (v) => typeof v === 'function',
  canonicalAddress: (v) => typeof v === 'function',
  addressKey: (v) => typeof v === 'function',
  checksumTypo: (v) => typeof v === 'function',
  hashPrefix: (v) => typeof v === 'string',
  paymentUri: (v) => typeof v === 'function',
  addressName: (v) => typeof v === 'object' && v !== null && ['en', 'vi'].every((lang) => typeof (v as Record<string, unknown>)[lang] === 'string' && (v as Record<string, string>)[lang] !== ''),
  wallet: (v) => typeof v === 'object' && v !== null && Number.isInteger((v as { slip44?: unknown }).slip44),
};

const root = sandboxRootKey(DEFAULT_SANDBOX_SEED_HEX);

describe('network families', () => {
  it('registers a module for each family of the contract, and no other, on both sides', () => {
    assert.deepEqual([...FAMILY_NAMES].sort(), [...NETWORK_FAMILIES].sort());
    assert.deepEqual(Object.keys(GATEWAY_FAMILIES).sort(), [...NETWORK_FAMILIES].sort());
  });

  for (const name of NETWORK_FAMILIES) {
    it(`${name}: has every part, and reads payment URIs where it has a scheme`, () => {
      const family = FAMILIES[name] as unknown as Record<string, unknown>;
      for (const [part, ok] of Object.entries(PARTS)) assert.ok(ok(family[part]), `${name} has no valid ${part}`);
      assert.equal(typeof family.parsePaymentUri === 'function', FAMILIES[name].wallet.scheme !== undefined, `${name}: a URI scheme, and a reader of it, go together`);
    });
  }

  it("lists every family's wallet part once for the element, the bare address's last", () => {
    assert.deepEqual(new Set(WALLETS), new Set(FAMILY_NAMES.map((name) => FAMILIES[name].wallet)));
    assert.equal(WALLETS.length, FAMILY_NAMES.length);
    assert.ok(WALLETS.slice(0, -1).every((w) => w.scheme), 'only the last may have no scheme: walletOf takes the first that fits');
  });

  for (const network of sandboxNetworks.all) {
    it(`${network.family} (${network.id}): its addresses are its own, and its payment URIs read back, to its wallet part`, () => {
      const family = FAMILIES[network.family];
      const address = deriveAddress(root, network.family, 7);
      assert.ok(family.isValidAddress(address));
      assert.equal(family.canonicalAddress(address), address);
      assert.equal(family.addressKey(address), family.addressKey(family.canonicalAddress(address)));
      for (const other of FAMILY_NAMES.filter((n) => n !== network.family)) assert.equal(FAMILIES[other].isValidAddress(address), false, `${address} is also ${other}'s`);
      for (const asset of network.assets) {
        const uri = paymentUri(network, { asset: asset.asset, address, atomic: 12_345n });
        const read = parsePaymentUri(uri, sandboxNetworks.all);
        assert.equal(read.network, network.id);
        assert.equal(read.address, address);
        assert.equal(walletOf(uri), family.wallet);
      }
    });
  }
});
