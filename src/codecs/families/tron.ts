// The TRON family: base58check `T…` addresses (0x41 and the same account hash as an EVM address), BIP44 coin 195, and
// the bare address as its payment URI: no URI scheme is shared by its wallets and exchanges (docs/api.md).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import { accountHash } from './evm.js';
import type { Family } from './family.js';
import { tronWallet } from './wallets.js';

const base58check = /* @__PURE__ */ createBase58check(sha256);
const TRON_PREFIX = 0x41;

/** The base58check `T…` form of a TRON address's 21 bytes (0x41 and the account hash), as TRON's messages carry it. */
export function tronAddressFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX) throw new Error('a TRON address is 21 bytes starting with 0x41');
  return base58check.encode(bytes);
}

/** The 21 bytes of a base58check `T…` TRON address; throws if it is not one (checksum included). */
export function tronAddressBytes(address: string): Uint8Array {
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch (error) {
    throw new Error(`${address} is not base58check (${(error as Error).message})`, { cause: error });
  }
  if (payload.length !== 21 || payload[0] !== TRON_PREFIX) throw new Error(`${address} is not a TRON address (21 bytes starting with 0x41)`);
  return payload;
}

/**
 * A TRON address from the 20-byte hex a TRON node's JSON-RPC writes (`0x` and 40 digits, the `0x41` of the base58 form
 * dropped), or from the 21-byte form (`41…`) of its HTTP API.
 */
export function tronAddressFromHex(hex: string): string {
  const digits = hex.replace(/^0x/i, '');
  if (!/^(41)?[0-9a-fA-F]{40}$/.test(digits)) throw new RangeError(`"${hex}" is not a TRON address in hex (20 bytes, or 21 starting with 41)`);
  return tronAddressFromBytes(Uint8Array.of(TRON_PREFIX, ...hexToBytes(digits.slice(-40))));
}

/** The 20-byte hex (`0x…`, lower case) of a base58check TRON address, as a TRON node's JSON-RPC takes it. */
export function tronAddressToHex(address: string): string {
  return `0x${bytesToHex(tronAddressBytes(address).subarray(1))}`;
}

/** The identity, for what base58 writes only one way. */
const same = (address: string) => address;

export const tron: Family = {
  coinPath: "m/44'/195'",
  encodeAddress: (publicKey) => tronAddressFromBytes(Uint8Array.of(TRON_PREFIX, ...accountHash(publicKey))),
  isValidAddress(address) {
    try {
      tronAddressBytes(address);
      return true;
    } catch {
      return false;
    }
  },
  canonicalAddress: same,
  addressKey: same,
  checksumTypo: () => false,
  hashPrefix: '',
  paymentUri: (_network, _asset, { address }) => address,
  addressName: { en: 'a TRON (T…)', vi: 'TRON (T…)' },
  wallet: tronWallet,
};
