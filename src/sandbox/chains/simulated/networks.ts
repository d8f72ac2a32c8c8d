// The simulator as a source of networks: the embedded sandbox's TRON, Ethereum (as Sepolia) and Bitcoin testnet, one
// of each family, all simulated (chains/configuration.ts puts the environment's over them).
import { SEPOLIA_CHAIN_ID, type NetworkConfig } from '../networks.js';

/** The simulated networks of the embedded sandbox; `blockIntervalMs` comes from the configuration. */
export function simulatedNetworks(blockIntervalMs: (fallback: number) => number): NetworkConfig[] {
  return [
    {
      id: 'TRON',
      name: 'TRON',
      family: 'tron',
      testnet: true,
      assets: [{ asset: 'USDT', decimals: 6, quote_decimals: 2, token_standard: 'TRC-20' }],
      confirmations: 3,
      source: { kind: 'simulated', blockIntervalMs: blockIntervalMs(3_000) },
    },
    {
      id: 'ETHEREUM',
      name: 'Ethereum Sepolia',
      family: 'evm',
      testnet: true,
      chain_id: SEPOLIA_CHAIN_ID,
      assets: [
        { asset: 'USDT', decimals: 6, quote_decimals: 2, token_contract: '0xaA8E23Fb1079EA71e0a56F48a2aA51851D8433D0', token_standard: 'ERC-20' },
        { asset: 'ETH', decimals: 18, quote_decimals: 6 },
      ],
      confirmations: 3,
      source: { kind: 'simulated', blockIntervalMs: blockIntervalMs(6_000) },
    },
    {
      id: 'BITCOIN',
      // Not "Bitcoin testnet": `testnet` says so, in the customer's language ("mạng thử nghiệm Bitcoin").
      name: 'Bitcoin',
      family: 'bitcoin',
      testnet: true,
      assets: [{ asset: 'BTC', decimals: 8, quote_decimals: 8 }],
      confirmations: 2,
      source: { kind: 'simulated', blockIntervalMs: blockIntervalMs(10_000) },
    },
  ];
}
