// The EVM family on the gateway's side (chains/families.ts): its networks from ETHEREUM_* and EVM_NETWORKS, and its
// JSON-RPC node client, loaded only when a node is configured.
import type { GatewayFamily } from '../family.js';
import { evmNetworks } from './configuration.js';

export const evmGateway: GatewayFamily = {
  networks: evmNetworks,
  nodeChain: async () => (await import('./node-chain.js')).EvmNodeChain.open,
  isDevelopmentNode: async (source) => (await import('./node-chain.js')).isDevelopmentNode(source),
  tokenDecimals: async (source, contract) => (await import('./node-chain.js')).tokenDecimals(source, contract),
};
