// The embedded sandbox's networks (simulated TRON, Ethereum Sepolia and Bitcoin testnet), for tests of the pure codecs.
import { deriveAddress, sandboxRootKey } from '../../src/codecs/addresses.js';
import { paymentUri as uriOn, type PaymentTarget } from '../../src/codecs/uri.js';
import { Networks } from '../../src/sandbox/chains/networks.js';
import { simulatedNetworks } from '../../src/sandbox/chains/simulated/networks.js';

export const sandboxNetworks = new Networks(simulatedNetworks((fallback) => fallback));

/** The URI a sandbox payment's QR carries, for a target on one of these networks. */
export const paymentUri = ({ network, ...target }: PaymentTarget & { network: string }) => uriOn(sandboxNetworks.of(network), target);

/** The receiving addresses of a seed at one index, on each family's network. */
export function addressesAt(seedHex: string, index: number): { eth: string; tron: string; btc: string } {
  const root = sandboxRootKey(seedHex);
  return { eth: deriveAddress(root, 'evm', index), tron: deriveAddress(root, 'tron', index), btc: deriveAddress(root, 'bitcoin', index) };
}
