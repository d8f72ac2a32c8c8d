// One-time receive addresses: BIP32 keys at BIP44-style paths, encoded in each network's own format
// (TRON base58check `T…`, EIP-55 `0x…`, bech32 P2WPKH `tb1q…` on Bitcoin testnet).
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { bech32, createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';

/** How a network's addresses (and payment URIs) are written. */
export type NetworkFamily = 'tron' | 'evm' | 'bitcoin';

/** The sandbox's HD seed: public on purpose, like every sandbox default. Never hold real funds at these addresses. */
export const DEFAULT_SANDBOX_SEED_HEX = '70617920636865636b6f75742073616e64626f782068642073656564202d2d21';

const base58check = createBase58check(sha256);
const TRON_PREFIX = 0x41;
const BITCOIN_TESTNET_HRP = 'tb';

/**
 * Each family's purpose and coin: TRON coin 195, Ethereum coin 60 (BIP44, every EVM network, as wallets do), Bitcoin
 * testnet native segwit (BIP84, coin 1). One-time addresses are the receive chain of account 0.
 */
const COIN_PATH: Record<NetworkFamily, string> = { tron: "m/44'/195'", evm: "m/44'/60'", bitcoin: "m/84'/1'" };
const accountPath = (family: NetworkFamily, account: number) => `${COIN_PATH[family]}/${account}'/0`;

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
export function encodeAddress(family: NetworkFamily, compressedPublicKey: Uint8Array, hrp = BITCOIN_TESTNET_HRP): string {
  if (family === 'bitcoin') return bech32.encode(hrp, [0, ...bech32.toWords(ripemd160(sha256(compressedPublicKey)))]);
  const uncompressed = secp256k1.Point.fromBytes(compressedPublicKey).toBytes(false);
  const accountHash = keccak_256(uncompressed.subarray(1)).subarray(12);
  if (family === 'evm') return toChecksumAddress(`0x${bytesToHex(accountHash)}`);
  return tronAddressFromBytes(Uint8Array.of(TRON_PREFIX, ...accountHash));
}

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

/** EIP-55: each hex letter is upper case where the keccak of the lower-case address has a high nibble. */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  return out;
}

/**
 * The one spelling of a well-formed address the gateway writes: EIP-55 for an EVM address (a wallet may show it in
 * lower case), lower case for bech32 (which allows all upper case); base58 has only one.
 */
export function canonicalAddress(family: NetworkFamily, address: string): string {
  if (family === 'evm') return toChecksumAddress(address);
  return family === 'bitcoin' ? address.toLowerCase() : address;
}

/** Whether `address` is well formed for the network, checksum included. */
export function isValidAddress(family: NetworkFamily, address: string): boolean {
  switch (family) {
    case 'evm':
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
      // EIP-55: an all-lower or all-upper address carries no checksum; a mixed-case one must match it.
      return address.slice(2) === address.slice(2).toLowerCase() || address.slice(2) === address.slice(2).toUpperCase() || toChecksumAddress(address) === address;
    case 'tron':
      try {
        tronAddressBytes(address);
        return true;
      } catch {
        return false;
      }
    case 'bitcoin':
      try {
        const { prefix, words } = bech32.decode(address as `${string}1${string}`);
        const program = bech32.fromWords(words.slice(1));
        return prefix === BITCOIN_TESTNET_HRP && words[0] === 0 && program.length === 20;
      } catch {
        return false;
      }
  }
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
