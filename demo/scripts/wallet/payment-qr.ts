// What the wallet reads from a checkout's QR, and the amounts it offers to send. It knows only what the QR says and
// the networks the gateway names (GET /sandbox/chain): the parser is the gateway's own (src/codecs/uri.ts,
// pure and browser-safe), so both read URIs alike.
import type { AssetCode, ChainNetwork, Network } from '../../../src/contract/index.js';
import { formatAtomic, parseDecimal } from '../../../src/codecs/amounts.js';
import { parsePaymentUri, type UriNetwork } from '../../../src/codecs/uri.js';

export interface ScannedPayment {
  /** The text the QR held. */
  uri: string;
  network: Network;
  /** Absent for a bare EVM address on a network of several coins: the tester picks one (ETH or USDT). */
  asset?: AssetCode;
  address: string;
  /** Decimal string; absent when the QR holds only an address (TRON), so the tester types it. */
  amount?: string;
}

/** The networks as GET /sandbox/chain tells them, as the URI codec reads them (its `id` is their `network`). */
export const uriNetworks = (networks: readonly ChainNetwork[]): UriNetwork[] => networks.map((n) => ({ ...n, id: n.network }));

export function decimalsOf(asset: AssetCode, network: Network, networks: readonly UriNetwork[]): number {
  const info = networks.find((n) => n.id === network)?.assets.find((a) => a.asset === asset);
  if (!info) throw new Error(`${asset} is not on ${network}`);
  return info.decimals;
}

/** Reads a BIP21 / EIP-681 URI or a bare address against the networks; throws with a message a tester can act on. */
export function readPaymentQr(text: string, networks: readonly UriNetwork[]): ScannedPayment {
  const parsed = parsePaymentUri(text, networks);
  const amount = parsed.atomic !== undefined && parsed.asset ? formatAtomic(parsed.atomic, decimalsOf(parsed.asset, parsed.network, networks)) : undefined;
  return { uri: text.trim(), network: parsed.network, address: parsed.address, ...(parsed.asset && { asset: parsed.asset }), ...(amount && { amount }) };
}

/**
 * `percent` % of a decimal amount, rounded up to the asset's smallest unit, as a decimal string:
 * 50 for a partial payment, 110 for an overpayment. Integer arithmetic only.
 */
export function shareOf(amount: string, decimals: number, percent: number): string {
  if (!Number.isInteger(percent) || percent <= 0) throw new Error('the share must be a whole, positive percentage');
  const atomic = parseDecimal(amount.trim(), decimals);
  return formatAtomic((atomic * BigInt(percent) + 99n) / 100n, decimals);
}
