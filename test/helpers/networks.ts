// The embedded sandbox's networks (simulated TRON, Ethereum Sepolia and Bitcoin testnet), for tests of the pure codecs.
import { Networks } from '../../src/sandbox/chains/networks.js';
import { simulatedNetworks } from '../../src/sandbox/chains/simulated/networks.js';

export const sandboxNetworks = new Networks(simulatedNetworks((fallback) => fallback));
