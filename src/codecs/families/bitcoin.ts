// The Bitcoin family, on testnet: bech32 P2WPKH `tb1q…` addresses at BIP84 paths (coin 1), and BIP21 payment URIs.
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32 } from '@scure/base';
import { formatAtomic, parseDecimal } from '../amounts.js';
import type { Family, ParsedPaymentUri, UriNetwork } from './family.js';
import { bitcoinWallet } from './wallets.js';

const TESTNET_HRP = 'tb';

function isValidAddress(address: string): boolean {
  try {
    const { prefix, words } = bech32.decode(address as `${string}1${string}`);
    const program = bech32.fromWords(words.slice(1));
    return prefix === TESTNET_HRP && words[0] === 0 && program.length === 20;
  } catch {
    return false;
  }
}

function parseBip21(uri: string, networks: readonly UriNetwork[]): ParsedPaymentUri {
  const network = networks[0];
  if (!network) throw new Error('this wallet holds no Bitcoin');
  const [path = '', query = ''] = uri.slice('bitcoin:'.length).split('?', 2);
  if (!isValidAddress(path)) throw new Error(`"${path}" is not a Bitcoin testnet address`);
  const params = new URLSearchParams(query);
  for (const name of params.keys()) {
    if (name.startsWith('req-')) throw new Error(`the URI requires "${name}", which this wallet does not support`);
  }
  const amount = params.get('amount');
  const { asset, decimals } = network.assets[0]!;
  return { network: network.id, asset, address: path, ...(amount !== null && { atomic: parseDecimal(amount, decimals) }) };
}

export const bitcoin: Family = {
  // Native segwit (BIP84) on testnet, coin 1.
  coinPath: "m/84'/1'",
  encodeAddress: (publicKey, hrp = TESTNET_HRP) => bech32.encode(hrp, [0, ...bech32.toWords(ripemd160(sha256(publicKey)))]),
  isValidAddress,
  // bech32 allows all upper case too: the gateway writes lower case.
  canonicalAddress: (address) => address.toLowerCase(),
  addressKey: (address) => address,
  checksumTypo: () => false,
  hashPrefix: '',
  paymentUri: (_network, info, { address, atomic }) => `bitcoin:${address}?amount=${formatAtomic(atomic, info.decimals)}`,
  parsePaymentUri: parseBip21,
  addressName: { en: 'a Bitcoin testnet (tb1…)', vi: 'Bitcoin testnet (tb1…)' },
  wallet: bitcoinWallet,
};
