// The EVM family (Ethereum and every EVM network of the configuration): EIP-55 `0x…` addresses (keccak of the public
// key), BIP44 coin 60 on every EVM network as wallets do, and EIP-681 payment URIs with the network's own chain id.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Family, ParsedPaymentUri, UriNetwork } from './family.js';
import { evmWallet } from './wallets.js';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** EIP-55: each hex letter is upper case where the keccak of the lower-case address has a high nibble. */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  return out;
}

/** The last 20 bytes of the keccak of the uncompressed public key: the account an EVM address (and a TRON one) names. */
export function accountHash(compressedPublicKey: Uint8Array): Uint8Array {
  return keccak_256(secp256k1.Point.fromBytes(compressedPublicKey).toBytes(false).subarray(1)).subarray(12);
}

function isValidAddress(address: string): boolean {
  if (!HEX_ADDRESS.test(address)) return false;
  // EIP-55: an all-lower or all-upper address carries no checksum; a mixed-case one must match it.
  const hex = address.slice(2);
  return hex === hex.toLowerCase() || hex === hex.toUpperCase() || toChecksumAddress(address) === address;
}

/** EIP-681 numbers may be written `2.014e18`; they must still come out whole. */
function eip681Number(text: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?(?:e(\d+))?$/i.exec(text);
  if (!match) throw new Error(`"${text}" is not an EIP-681 number`);
  const fraction = match[2] ?? '';
  const exponent = BigInt(match[3] ?? 0);
  const shift = exponent - BigInt(fraction.length);
  if (shift < 0n || exponent > 80n) throw new Error(`"${text}" is not a whole number of atomic units`);
  return BigInt(match[1]! + fraction) * 10n ** shift;
}

function parseEip681(uri: string, evm: readonly UriNetwork[]): ParsedPaymentUri {
  const match = /^ethereum:(?:pay-)?(0x[0-9a-fA-F]{40})(?:@(\d+))?(?:\/([A-Za-z_]\w*))?(?:\?(.*))?$/i.exec(uri);
  if (!match) throw new Error('not an EIP-681 URI');
  const [, target, chainId, fn, query = ''] = match;
  // EIP-681 leaves out the chain id for mainnet (1).
  const network = evm.find((n) => String(n.chain_id) === (chainId ?? '1'));
  if (!network) throw new Error(`chain ${chainId ?? 1} is not one this wallet holds (${evm.map((n) => n.chain_id).join(', ') || 'none'})`);
  const params = new URLSearchParams(query);
  if (fn === undefined) {
    const native = network.assets.find((a) => !a.token_contract);
    if (!native) throw new Error(`${network.id} has no native coin in this wallet`);
    const value = params.get('value');
    if (!isValidAddress(target!)) throw new Error('the EIP-681 target is not a valid address');
    return { network: network.id, asset: native.asset, address: target!, ...(value !== null && { atomic: eip681Number(value) }) };
  }
  if (fn !== 'transfer') throw new Error(`EIP-681 function "${fn}" is not a token transfer`);
  const token = network.assets.find((a) => a.token_contract?.toLowerCase() === target!.toLowerCase());
  if (!token) throw new Error(`token contract ${target} is not one this wallet holds on ${network.id}`);
  const address = params.get('address');
  if (!address || !isValidAddress(address)) throw new Error('the EIP-681 transfer has no valid recipient address');
  const amount = params.get('uint256');
  return { network: network.id, asset: token.asset, address, ...(amount !== null && { atomic: eip681Number(amount) }) };
}

export const evm: Family = {
  coinPath: "m/44'/60'",
  encodeAddress: (publicKey) => toChecksumAddress(`0x${bytesToHex(accountHash(publicKey))}`),
  isValidAddress,
  // A wallet may show an address in lower case: the gateway writes EIP-55.
  canonicalAddress: toChecksumAddress,
  // EIP-55 only adds a checksum to the case: the same address in any case.
  addressKey: (address) => address.toLowerCase(),
  checksumTypo: (address) => HEX_ADDRESS.test(address),
  hashPrefix: '0x',
  paymentUri: (network, info, { address, atomic }) =>
    info.token_contract
      ? `ethereum:${info.token_contract}@${network.chain_id}/transfer?address=${address}&uint256=${atomic}`
      : `ethereum:${address}@${network.chain_id}?value=${atomic}`,
  parsePaymentUri: parseEip681,
  addressName: { en: 'an Ethereum (0x…)', vi: 'Ethereum (0x…)' },
  wallet: evmWallet,
};
