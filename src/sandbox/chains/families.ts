// The gateway's side of the network families: what each family's folder, chains/<family>/, adds to its module of the
// codecs (codecs/families/): its networks from the environment and its node client. Adding a family is its folder and
// its line here (docs/networks.md, "Network families: add a family"); a family with neither is simulated only.
import type { NetworkFamily } from '../../contract/index.js';
import type { ChainVariable, EnvOf } from '../variables.js';
import type { NetworkSpec } from './networks.js';
import { evmGateway } from './evm/family.js';
import type { NetworkConfig, NodeSource } from './networks.js';
import type { ChainPort, ChainWallet } from './port.js';
import { tronGateway } from './tron/family.js';

export interface GatewayFamily {
  /** Its networks from the environment, over those configured so far: each replaces the network of its id, or is added. */
  networks?(env: EnvOf<ChainVariable>, configured: readonly NetworkSpec[]): NetworkSpec[];
  /** Its node client (a chain port), loaded only where a node of it is configured: the embedded sandbox starts without it. */
  nodeChain?(): Promise<(network: NetworkConfig) => Promise<ChainPort & Partial<ChainWallet>>>;
  /** Whether a node is a development node (anvil), on which the sandbox funds and mines; absent: none of its nodes is. */
  isDevelopmentNode?(source: NodeSource): Promise<boolean>;
  /** A token's decimals as its contract on a node tells them, where the configuration leaves them out. */
  tokenDecimals?(source: NodeSource, contract: string): Promise<number>;
}

/** In the order their variables are read (chains/configuration.ts); Bitcoin is simulated only. */
export const GATEWAY_FAMILIES: Readonly<Record<NetworkFamily, GatewayFamily>> = { tron: tronGateway, evm: evmGateway, bitcoin: {} };
