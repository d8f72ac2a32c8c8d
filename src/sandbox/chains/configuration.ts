// The networks from the environment (README, "Real chains"): the embedded sandbox's simulated TRON, Ethereum and
// Bitcoin by default (chains/simulated/networks.ts), then each family's from its own variables (ETHEREUM_RPC_URL and
// EVM_NETWORKS for the EVM family, TRON_RPC_URL for TRON: chains/<family>/configuration.ts), and the withdrawal fees.
// Every value is checked at start, and a bad one is refused in one line naming it.
import type { ChainVariable, EnvOf } from '../variables.js';
import { wholeNumber } from './env-values.js';
import { GATEWAY_FAMILIES } from './families.js';
import type { NetworkSpec } from './networks.js';
import { simulatedNetworks } from './simulated/networks.js';

/** The variables read here are CHAIN_VARIABLES' (variables.ts): no other name type-checks. */
type ChainEnv = EnvOf<ChainVariable>;

export function networksFrom(env: ChainEnv): NetworkSpec[] {
  // One interval for every simulated network's blocks when set (0: blocks only when mined on demand).
  const networks: NetworkSpec[] = simulatedNetworks((fallback) => wholeNumber(env, 'SANDBOX_BLOCK_INTERVAL_MS', fallback));
  // Each family's networks from its own variables (chains/<family>/configuration.ts), in the registry's order.
  for (const family of Object.values(GATEWAY_FAMILIES)) for (const network of family.networks?.(env, networks) ?? []) replace(networks, network);
  withdrawalFees(networks, env.WITHDRAWAL_FEES);
  return networks;
}

/**
 * What the common exchanges (Binance, OKX, Remitano) usually take to withdraw each asset on its network, in units of
 * the asset, as docs/networks.md ("Withdrawal fees") lists them; WITHDRAWAL_FEES overrides any of them without a
 * release. The largest of the common ones, so that what the customer is told to type arrives from any of them.
 */
export const DEFAULT_WITHDRAWAL_FEES: Readonly<Record<string, string>> = {
  'USDT:TRON': '1',
  'USDT:ETHEREUM': '4',
  'ETH:ETHEREUM': '0.0015',
  'BTC:BITCOIN': '0.0002',
};

/** A fee is below this many units of its asset: a larger one is a typo (a fee in atomic units, say), not a fee. */
const MAX_WITHDRAWAL_FEE = 1_000;

/**
 * WITHDRAWAL_FEES=USDT:TRON=1,USDT:ETHEREUM=4.5: each configured asset's usual withdrawal fee, over
 * DEFAULT_WITHDRAWAL_FEES; `0` says there is none to add. Each entry must name a configured asset on its network and
 * be a decimal string of at most the asset's decimal places, below MAX_WITHDRAWAL_FEE.
 */
function withdrawalFees(networks: NetworkSpec[], raw: string | undefined): void {
  const fees = new Map(Object.entries(DEFAULT_WITHDRAWAL_FEES));
  for (const entry of (raw ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const match = /^([^:=]+):([^:=]+)=(.*)$/.exec(entry);
    if (!match) throw new Error(`WITHDRAWAL_FEES: "${entry}" must be ASSET:NETWORK=FEE, such as USDT:TRON=1`);
    const [, asset, network, fee] = match as unknown as [string, string, string, string];
    const spec = networks.find((n) => n.id === network)?.assets.find((a) => a.asset === asset);
    if (!spec) throw new Error(`WITHDRAWAL_FEES: ${asset}:${network} is not a configured asset on its network (configured: ${networks.flatMap((n) => n.assets.map((a) => `${a.asset}:${n.id}`)).join(', ')})`);
    const places = /^\d+(?:\.(\d+))?$/.exec(fee);
    if (!places) throw new Error(`WITHDRAWAL_FEES: ${asset}:${network} must be a decimal string such as 1 or 0.0015, got "${fee}"`);
    // A token whose decimals its contract tells (not known yet) gets the most any asset has, 18.
    const decimals = spec.decimals ?? 18;
    if ((places[1]?.length ?? 0) > decimals) throw new Error(`WITHDRAWAL_FEES: ${asset}:${network} has at most ${decimals} decimal places, got "${fee}"`);
    if (Number(fee.split('.')[0]) >= MAX_WITHDRAWAL_FEE) throw new Error(`WITHDRAWAL_FEES: ${asset}:${network} must be below ${MAX_WITHDRAWAL_FEE} ${asset}, got "${fee}"`);
    fees.set(`${asset}:${network}`, fee);
  }
  for (const network of networks) {
    for (const asset of network.assets) {
      const fee = fees.get(`${asset.asset}:${network.id}`);
      if (fee !== undefined) asset.withdrawal_fee = fee;
    }
  }
}

/**
 * NETWORKS=ETHEREUM,TRON: the configured networks taken, in the order configured; unset, every one. A network left out
 * is not offered, watched or quoted at all. Each name that is no configured network is one problem.
 */
export function networksTaken(networks: NetworkSpec[], raw: string | undefined): { networks: NetworkSpec[]; problems: string[] } {
  if (raw === undefined || raw === '') return { networks, problems: [] };
  const names = raw.split(',').map((name) => name.trim()).filter(Boolean);
  const configured = networks.map((n) => n.id);
  const unknown = names.filter((name) => !configured.includes(name));
  const problems = unknown.map((name) => `NETWORKS names ${name}, which is not a configured network (configured: ${configured.join(', ')})`);
  if (!names.length) problems.push(`NETWORKS names no network; list the ones taken, such as NETWORKS=${configured.join(',')}`);
  return { networks: networks.filter((n) => names.includes(n.id)), problems };
}

/** A network of the same id is replaced (Ethereum on a node, say); a new one is added. */
function replace(networks: NetworkSpec[], network: NetworkSpec): void {
  const at = networks.findIndex((n) => n.id === network.id);
  if (at >= 0) networks[at] = network;
  else networks.push(network);
}
