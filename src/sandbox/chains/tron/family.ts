// The TRON family on the gateway's side (chains/families.ts): TRON on a node from TRON_*, and its node client, loaded
// only when TRON_RPC_URL is set.
import type { GatewayFamily } from '../family.js';
import { tronOnNode } from './configuration.js';

export const tronGateway: GatewayFamily = {
  networks: (env) => {
    const tron = tronOnNode(env);
    return tron ? [tron] : [];
  },
  nodeChain: async () => (await import('./node-chain.js')).TronNodeChain.open,
};
