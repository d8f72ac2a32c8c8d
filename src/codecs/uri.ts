// What the QR encodes (docs/api.md, "Checkout API"): BIP21 for Bitcoin, EIP-681 for EVM networks and their tokens
// (with the network's own chain id), the bare address for TRON (no URI scheme that wallets share). parsePaymentUri
// reads them back as a wallet does, against the networks it knows.
import type { AssetCode, Network } from '../contract/index.js';
import { isValidAddress, type NetworkFamily } from './addresses.js';
import { formatAtomic, parseDecimal } from './amounts.js';

/** What a URI codec needs of a network: the gateway's configuration and GET /sandbox/chain both carry it. */
export interface UriNetwork {
  id: Network;
  family: NetworkFamily;
  chain_id?: number | null;
  assets: readonly { asset: AssetCode; decimals: number; token_contract?: string | null }[];
}

export interface PaymentTarget {
  asset: AssetCode;
  address: string;
  atomic: bigint;
}

export function paymentUri(network: UriNetwork, { asset, address, atomic }: PaymentTarget): string {
  const info = network.assets.find((a) => a.asset === asset);
  if (!info) throw new Error(`${asset} is not offered on ${network.id}`);
  if (network.family === 'bitcoin') return `bitcoin:${address}?amount=${formatAtomic(atomic, info.decimals)}`;
  if (network.family === 'tron') return address;
  if (info.token_contract) return `ethereum:${info.token_contract}@${network.chain_id}/transfer?address=${address}&uint256=${atomic}`;
  return `ethereum:${address}@${network.chain_id}?value=${atomic}`;
}

export interface ParsedPaymentUri {
  network: Network;
  /** Known from the URI where it says (a token contract, a scheme); absent for a bare EVM address. */
  asset?: AssetCode;
  address: string;
  /** Absent when the QR holds only an address: the customer types the amount. */
  atomic?: bigint;
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

export function parsePaymentUri(text: string, networks: readonly UriNetwork[]): ParsedPaymentUri {
  const uri = text.trim();
  const scheme = /^([a-z]+):/i.exec(uri)?.[1]?.toLowerCase();
  if (scheme === 'bitcoin') return parseBip21(uri, networks);
  if (scheme === 'ethereum') return parseEip681(uri, networks);
  if (scheme) throw new Error(`unsupported payment URI scheme "${scheme}:"`);
  // A bare address: its network is the first whose format it has (EVM addresses are the same on every EVM network).
  for (const network of networks) {
    if (!isValidAddress(network.family, uri)) continue;
    const only = network.assets.length === 1 ? network.assets[0]!.asset : undefined;
    return { network: network.id, address: uri, ...(only && { asset: only }) };
  }
  throw new Error('not a payment URI or an address this wallet knows');
}

function parseBip21(uri: string, networks: readonly UriNetwork[]): ParsedPaymentUri {
  const network = networks.find((n) => n.family === 'bitcoin');
  if (!network) throw new Error('this wallet holds no Bitcoin');
  const [path = '', query = ''] = uri.slice('bitcoin:'.length).split('?', 2);
  if (!isValidAddress('bitcoin', path)) throw new Error(`"${path}" is not a Bitcoin testnet address`);
  const params = new URLSearchParams(query);
  for (const name of params.keys()) {
    if (name.startsWith('req-')) throw new Error(`the URI requires "${name}", which this wallet does not support`);
  }
  const amount = params.get('amount');
  const { asset, decimals } = network.assets[0]!;
  return { network: network.id, asset, address: path, ...(amount !== null && { atomic: parseDecimal(amount, decimals) }) };
}

function parseEip681(uri: string, networks: readonly UriNetwork[]): ParsedPaymentUri {
  const match = /^ethereum:(?:pay-)?(0x[0-9a-fA-F]{40})(?:@(\d+))?(?:\/([A-Za-z_]\w*))?(?:\?(.*))?$/i.exec(uri);
  if (!match) throw new Error('not an EIP-681 URI');
  const [, target, chainId, fn, query = ''] = match;
  const evm = networks.filter((n) => n.family === 'evm');
  // EIP-681 leaves out the chain id for mainnet (1).
  const network = evm.find((n) => String(n.chain_id) === (chainId ?? '1'));
  if (!network) throw new Error(`chain ${chainId ?? 1} is not one this wallet holds (${evm.map((n) => n.chain_id).join(', ') || 'none'})`);
  const params = new URLSearchParams(query);
  if (fn === undefined) {
    const native = network.assets.find((a) => !a.token_contract);
    if (!native) throw new Error(`${network.id} has no native coin in this wallet`);
    const value = params.get('value');
    if (!isValidAddress('evm', target!)) throw new Error('the EIP-681 target is not a valid address');
    return { network: network.id, asset: native.asset, address: target!, ...(value !== null && { atomic: eip681Number(value) }) };
  }
  if (fn !== 'transfer') throw new Error(`EIP-681 function "${fn}" is not a token transfer`);
  const token = network.assets.find((a) => a.token_contract?.toLowerCase() === target!.toLowerCase());
  if (!token) throw new Error(`token contract ${target} is not one this wallet holds on ${network.id}`);
  const address = params.get('address');
  if (!address || !isValidAddress('evm', address)) throw new Error('the EIP-681 transfer has no valid recipient address');
  const amount = params.get('uint256');
  return { network: network.id, asset: token.asset, address, ...(amount !== null && { atomic: eip681Number(amount) }) };
}
