// The embedded sandbox's networks (simulated TRON, Ethereum Sepolia and Bitcoin testnet), for tests of the pure codecs.
import { Networks, simulatedNetworks } from '../../src/sandbox/chains/networks.js';

export const sandboxNetworks = new Networks(simulatedNetworks((fallback) => fallback));
