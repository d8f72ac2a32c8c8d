// The gateway's networks as GET /sandbox/chain tells them (the portal is the sandbox's): the coins of the list's
// filter, each network's name, and each asset's decimals, in which a refund's crypto is counted. Asked for once,
// before the portal's elements are defined (portal.ts), so the pages draw with them from their first frame.
import type { AssetCode, ChainNetwork, ChainState, Network } from '../../../src/contract/index.js';
import { api } from '../lib/api.js';

let known: readonly ChainNetwork[] = [];

export async function loadNetworks(): Promise<void> {
  known = (await api<ChainState>('/sandbox/chain')).networks;
}

export const networks = (): readonly ChainNetwork[] => known;

/** A network's name (`Ethereum Sepolia`); its id while the gateway has not named it. */
export const networkName = (network: Network): string => known.find((n) => n.network === network)?.name ?? network;

/** Atomic units per unit of an asset = 10^decimals; undefined for an asset the gateway does not list. */
export const decimalsOf = (asset: AssetCode, network: Network): number | undefined =>
  known.find((n) => n.network === network)?.assets.find((a) => a.asset === asset)?.decimals;
