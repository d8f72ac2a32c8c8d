// What the QR encodes (docs/api.md, "Checkout API"): BIP21 for Bitcoin, EIP-681 for Ethereum and its tokens,
// the bare address for TRON (no URI scheme that wallets share). parsePaymentUri reads them back, as a wallet does.
import { ASSETS, findAsset, type AssetCode, type Network } from '../../contract/index.js';
import { isValidAddress } from './addresses.js';
import { formatAtomic, parseDecimal } from './amounts.js';

export interface PaymentTarget {
  asset: AssetCode;
  network: Network;
  address: string;
  atomic: bigint;
}

export function paymentUri({ asset, network, address, atomic }: PaymentTarget): string {
  const info = findAsset(asset, network);
  if (!info) throw new Error(`${asset} is not offered on ${network}`);
  if (network === 'BITCOIN') return `bitcoin:${address}?amount=${formatAtomic(atomic, info.decimals)}`;
  if (network === 'TRON') return address;
  if (info.token_contract) return `ethereum:${info.token_contract}@${info.chain_id}/transfer?address=${address}&uint256=${atomic}`;
  return `ethereum:${address}@${info.chain_id}?value=${atomic}`;
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

export function parsePaymentUri(text: string): ParsedPaymentUri {
  const uri = text.trim();
  const scheme = /^([a-z]+):/i.exec(uri)?.[1]?.toLowerCase();
  if (scheme === 'bitcoin') return parseBip21(uri);
  if (scheme === 'ethereum') return parseEip681(uri);
  if (scheme) throw new Error(`unsupported payment URI scheme "${scheme}:"`);
  for (const network of ['TRON', 'ETHEREUM', 'BITCOIN'] as const) {
    if (isValidAddress(network, uri)) return { network, address: uri, asset: network === 'TRON' ? 'USDT' : network === 'BITCOIN' ? 'BTC' : undefined };
  }
  throw new Error('not a payment URI or an address this wallet knows');
}

function parseBip21(uri: string): ParsedPaymentUri {
  const [path = '', query = ''] = uri.slice('bitcoin:'.length).split('?', 2);
  if (!isValidAddress('BITCOIN', path)) throw new Error(`"${path}" is not a Bitcoin testnet address`);
  const params = new URLSearchParams(query);
  for (const name of params.keys()) {
    if (name.startsWith('req-')) throw new Error(`the URI requires "${name}", which this wallet does not support`);
  }
  const amount = params.get('amount');
  return { network: 'BITCOIN', asset: 'BTC', address: path, ...(amount !== null && { atomic: parseDecimal(amount, 8) }) };
}

function parseEip681(uri: string): ParsedPaymentUri {
  const match = /^ethereum:(?:pay-)?(0x[0-9a-fA-F]{40})(?:@(\d+))?(?:\/([A-Za-z_]\w*))?(?:\?(.*))?$/i.exec(uri);
  if (!match) throw new Error('not an EIP-681 URI');
  const [, target, chainId, fn, query = ''] = match;
  const params = new URLSearchParams(query);
  const chain = ASSETS.find((a) => a.network === 'ETHEREUM')!.chain_id;
  if (chainId !== undefined && chainId !== String(chain)) throw new Error(`chain ${chainId} is not Sepolia (${chain})`);
  if (fn === undefined) {
    const value = params.get('value');
    if (!isValidAddress('ETHEREUM', target!)) throw new Error('the EIP-681 target is not a valid address');
    return { network: 'ETHEREUM', asset: 'ETH', address: target!, ...(value !== null && { atomic: eip681Number(value) }) };
  }
  if (fn !== 'transfer') throw new Error(`EIP-681 function "${fn}" is not a token transfer`);
  const token = ASSETS.find((a) => a.token_contract?.toLowerCase() === target!.toLowerCase());
  if (!token) throw new Error(`token contract ${target} is not one this wallet holds`);
  const address = params.get('address');
  if (!address || !isValidAddress('ETHEREUM', address)) throw new Error('the EIP-681 transfer has no valid recipient address');
  const amount = params.get('uint256');
  return { network: 'ETHEREUM', asset: token.asset, address, ...(amount !== null && { atomic: eip681Number(amount) }) };
}
