// What a network family's folder, chains/<family>/, adds to its module of the codecs (codecs/families/), as the
// registry in chains/families.ts lists it: its own file, so that a family's module and the registry do not import each other.
import type { ChainVariable, EnvOf } from '../variables.js';
import type { NetworkConfig, NetworkSpec, NodeSource } from './networks.js';
import type { ChainPort, ChainWallet } from './port.js';

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
