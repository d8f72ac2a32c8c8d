// One-time receive addresses: BIP32 keys at each family's BIP44-style path, encoded in its own format (TRON
// base58check `T…`, EIP-55 `0x…`, bech32 P2WPKH `tb1q…` on Bitcoin testnet): the family modules in families/.
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import type { NetworkFamily } from '../contract/index.js';
import { FAMILIES } from './families/index.js';

/** How a network's addresses (and payment URIs) are written: the contract's list, one module each in families/. */
export type { NetworkFamily };
export { toChecksumAddress } from './families/evm.js';
export { tronAddressBytes, tronAddressFromBytes, tronAddressFromHex, tronAddressToHex } from './families/tron.js';

/** The sandbox's HD seed: public on purpose, like every sandbox default. Never hold real funds at these addresses. */
export const DEFAULT_SANDBOX_SEED_HEX = '70617920636865636b6f75742073616e64626f782068642073656564202d2d21';

/** Each family's purpose and coin (its `coinPath`); one-time addresses are the receive chain of account 0. */
const accountPath = (family: NetworkFamily, account: number) => `${FAMILIES[family].coinPath}/${account}'/0`;

/**
 * The path of a merchant's payout wallet (services/orders/payouts.ts): the first receive address of its own hardened
 * account, `m/44'/60'/<account>'/0/0` and each family's coin, as any BIP32 wallet derives it from the seed. Account 0
 * is the one hot wallet every merchant shared before each had its own.
 */
export function payoutPath(family: NetworkFamily, account: number): string {
  if (!Number.isSafeInteger(account) || account < 0 || account >= 2 ** 31) throw new RangeError(`payout account ${account} is out of range`);
  return `${accountPath(family, account)}/0`;
}

/** The sandbox root key, from a hex seed or an extended private key (`xprv…`/`tprv…`). */
export function sandboxRootKey(seedOrExtendedKey: string): HDKey {
  if (/^[xt]prv/.test(seedOrExtendedKey)) return HDKey.fromExtendedKey(seedOrExtendedKey);
  if (!/^([0-9a-fA-F]{2}){16,64}$/.test(seedOrExtendedKey)) throw new Error('the HD seed must be 16 to 64 bytes of hex, or an xprv');
  return HDKey.fromMasterSeed(hexToBytes(seedOrExtendedKey));
}

/** Whether `extended` is an account key of the public sandbox seed: anyone can spend what reaches its addresses. */
export function isSandboxAccount(family: NetworkFamily, extended: string): boolean {
  const sandbox = accountNode(sandboxRootKey(DEFAULT_SANDBOX_SEED_HEX), family);
  return bytesToHex(accountKeyFrom(extended).deriveChild(0).publicKey!) === bytesToHex(sandbox.publicKey!);
}

/** Version bytes of the extended public keys taken: xpub and tpub (BIP32/44), zpub and vpub (BIP84). */
const PUBLIC_VERSIONS: Record<string, number> = { xpub: 0x0488b21e, tpub: 0x043587cf, zpub: 0x04b24746, vpub: 0x045f1cf6 };

/**
 * An account's extended public key, as a wallet exports it (BTCPay's way): depth 3, `m/44'/195'/0'` (TRON),
 * `m/44'/60'/0'` (EVM) or `m/84'/1'/0'` (Bitcoin testnet). Its addresses are its receive chain's children, `0/index`:
 * the same addresses as the seed's, with nothing here that can spend them. Throws, saying why, for anything else.
 */
export function accountKeyFrom(extended: string): HDKey {
  if (/^[xtzv]prv/.test(extended)) throw new Error("is a private key: give the account's extended public key (xpub), which cannot spend");
  const version = PUBLIC_VERSIONS[extended.slice(0, 4)];
  if (version === undefined) throw new Error('must be an extended public key: xpub, tpub, zpub or vpub');
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(extended, { private: 0, public: version });
  } catch (error) {
    throw new Error(`is not a valid extended public key (${(error as Error).message})`, { cause: error });
  }
  if (key.depth !== 3) throw new Error(`is a key at depth ${key.depth}; give the account's key, at depth 3 (m/44'/coin'/0')`);
  return key;
}

/** One account however its extended public key is written (xpub, tpub, zpub, vpub): its chain code and public key, hex. */
export function accountKeyId(extended: string): string {
  const key = accountKeyFrom(extended);
  return `${bytesToHex(key.chainCode!)}${bytesToHex(key.publicKey!)}`;
}

// Deriving the account node once per root keeps 10,000 addresses to 10,000 child derivations. A root made by
// receivingKey() holds here the accounts it was given as extended public keys.
const accounts = new WeakMap<HDKey, Map<NetworkFamily, HDKey>>();

function accountNode(root: HDKey, family: NetworkFamily): HDKey {
  let byFamily = accounts.get(root);
  if (!byFamily) accounts.set(root, (byFamily = new Map()));
  let node = byFamily.get(family);
  if (!node) byFamily.set(family, (node = root.derive(accountPath(family, 0))));
  return node;
}

/**
 * The key one-time addresses derive from: each family of `accountXpubs` from its account's extended public key, the
 * others from the root of `seedOrExtendedKey`. Without a seed, only the families given can derive.
 */
export function receivingKey(seedOrExtendedKey: string | undefined, accountXpubs: Partial<Record<NetworkFamily, string>>): HDKey {
  const given = Object.entries(accountXpubs).map(([family, key]) => [family as NetworkFamily, accountKeyFrom(key).deriveChild(0)] as const);
  if (!seedOrExtendedKey && !given.length) throw new Error('one-time addresses need an HD seed or an extended public key');
  const root = seedOrExtendedKey ? sandboxRootKey(seedOrExtendedKey) : given[0]![1];
  accounts.set(root, new Map(given));
  return root;
}

/** The key of a one-time address: its public key makes the address, its private key signs what leaves it. */
export function deriveKey(root: HDKey, family: NetworkFamily, index: number): HDKey {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** 31) throw new RangeError(`address index ${index} is out of range`);
  return accountNode(root, family).deriveChild(index);
}

export function deriveAddress(root: HDKey, family: NetworkFamily, index: number): string {
  const publicKey = deriveKey(root, family, index).publicKey;
  if (!publicKey) throw new Error('the HD key has no public key');
  return encodeAddress(family, publicKey);
}

/** Encodes a compressed secp256k1 public key as the network's address. */
export function encodeAddress(family: NetworkFamily, compressedPublicKey: Uint8Array, hrp?: string): string {
  return FAMILIES[family].encodeAddress(compressedPublicKey, hrp);
}

/**
 * The one spelling of a well-formed address the gateway writes: EIP-55 for an EVM address (a wallet may show it in
 * lower case), lower case for bech32 (which allows all upper case); base58 has only one.
 */
export function canonicalAddress(family: NetworkFamily, address: string): string {
  return FAMILIES[family].canonicalAddress(address);
}

/** Whether `address` is well formed for the network, checksum included. */
export function isValidAddress(family: NetworkFamily, address: string): boolean {
  return FAMILIES[family].isValidAddress(address);
}
