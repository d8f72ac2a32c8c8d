// The gateway's side of the network families: what each family's folder, chains/<family>/, adds to its module of the
// codecs (codecs/families/): its networks from the environment and its node client. Adding a family is its folder and
// its line here (docs/networks.md, "Network families: add a family"); a family with neither is simulated only.
import type { NetworkFamily } from '../../contract/index.js';
import { evmGateway } from './evm/family.js';
import type { GatewayFamily } from './family.js';
import { tronGateway } from './tron/family.js';

/** In the order their variables are read (chains/configuration.ts); Bitcoin is simulated only. */
export const GATEWAY_FAMILIES: Readonly<Record<NetworkFamily, GatewayFamily>> = { tron: tronGateway, evm: evmGateway, bitcoin: {} };
