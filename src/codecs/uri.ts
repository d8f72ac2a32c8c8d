// What the QR encodes (docs/api.md, "Checkout API"): each family's own payment URI (families/: BIP21 for Bitcoin,
// EIP-681 for EVM networks and their tokens with the network's own chain id, the bare address for TRON).
// parsePaymentUri reads them back as a wallet does, against the networks it knows.
import { FAMILIES, FAMILY_NAMES, type ParsedPaymentUri, type PaymentTarget, type UriNetwork } from './families/index.js';

export type { ParsedPaymentUri, PaymentTarget, UriNetwork };

export function paymentUri(network: UriNetwork, target: PaymentTarget): string {
  const info = network.assets.find((a) => a.asset === target.asset);
  if (!info) throw new Error(`${target.asset} is not offered on ${network.id}`);
  return FAMILIES[network.family].paymentUri(network, info, target);
}

export function parsePaymentUri(text: string, networks: readonly UriNetwork[]): ParsedPaymentUri {
  const uri = text.trim();
  const scheme = /^([a-z]+):/i.exec(uri)?.[1]?.toLowerCase();
  if (scheme) {
    const family = FAMILY_NAMES.find((name) => FAMILIES[name].wallet.scheme === scheme);
    const parse = family && FAMILIES[family].parsePaymentUri;
    if (!parse) throw new Error(`unsupported payment URI scheme "${scheme}:"`);
    return parse(uri, networks.filter((n) => n.family === family));
  }
  // A bare address: its network is the first whose format it has (EVM addresses are the same on every EVM network).
  for (const network of networks) {
    if (!FAMILIES[network.family].isValidAddress(uri)) continue;
    const only = network.assets.length === 1 ? network.assets[0]!.asset : undefined;
    return { network: network.id, address: uri, ...(only && { asset: only }) };
  }
  throw new Error('not a payment URI or an address this wallet knows');
}
