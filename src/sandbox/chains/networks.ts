// The networks the gateway takes payments on, as configuration: each with its assets, its confirmations and where its
// facts come from (the simulator, or a JSON-RPC node). Nothing else in the gateway lists networks or assets: adding an
// EVM network is a configuration entry (README, "Real chains").
import type { AssetCode, Network } from '../../contract/index.js';
import type { NetworkFamily } from '../../contract/index.js';

export type { NetworkFamily };

export interface AssetConfig {
  asset: AssetCode;
  /** Atomic units per unit = 10^decimals. */
  decimals: number;
  /** Decimal places of a quote: what a person can type and a wallet shows (quotes are rounded up to it). */
  quote_decimals: number;
  /** The token's contract on its network; absent for the network's own coin. */
  token_contract?: string;
  /** The token standard a wallet names (TRC-20, ERC-20, BEP-20); absent for the network's own coin. */
  token_standard?: string;
  /**
   * What exchanges usually take to withdraw the asset on this network, a decimal string in units of the asset
   * (WITHDRAWAL_FEES, chains/configuration.ts): the element tells a customer paying from an exchange to add it.
   */
  withdrawal_fee?: string;
}

/** Blocks come from the gateway's own simulator, on a timer and on demand. */
export interface SimulatedSource {
  kind: 'simulated';
  /** A block comes this often on its own; 0: only when mined on demand (tests). */
  blockIntervalMs: number;
}

/** Blocks come from a JSON-RPC node the gateway watches. */
export interface NodeSource {
  kind: 'node';
  rpcUrl: string;
  /**
   * What a customer's browser wallet is told to add for this network (EIP-3085), never the watcher's URL, which may
   * carry a key; absent, a wallet that does not know the chain cannot be switched to it.
   */
  walletRpcUrl?: string;
  pollMs: number;
  /** Every call to the node fails after this long: a node that accepts and never answers is unreachable. */
  timeoutMs: number;
  /** Paid payments' blocks are re-checked this deep: a reorg within it reaches the merchant. */
  finalityBlocks: number;
  /** A development node (anvil): the sandbox wallet, faucet and mining use its own methods. */
  dev: boolean;
  /** The chain id the node must answer (`eth_chainId`, hex), checked when it is opened; unset: not checked. */
  chainId?: string;
  /** A head block older than this is a node behind (TRON's JSON-RPC says nothing else about it); unset: never. */
  stallMs?: number;
  /**
   * The open payments' token balances are compared with what the gateway recorded this often
   * (services/chains/cross-check.ts), where the port reads balances; unset: never.
   */
  crossCheckMs?: number;
  /** A provider's key, sent with every call (TRON-PRO-API-KEY); never shown or logged. */
  apiKey?: string;
  /** The network's HTTP API beside its JSON-RPC (TRON's `/wallet/…`), where it has one. */
  apiUrl?: string;
}

export interface NetworkConfig {
  id: Network;
  /** What a customer reads: "Ethereum Sepolia". */
  name: string;
  family: NetworkFamily;
  testnet: boolean;
  /** EIP-155 chain id (EVM networks): EIP-681 URIs carry it. */
  chain_id?: number;
  assets: AssetConfig[];
  confirmations: number;
  /**
   * Where a transaction can be looked up: `{explorer_url}/tx/{hash}`. None on a simulated network: its transactions
   * exist only in this gateway, and a public explorer would say they do not.
   */
  explorer_url?: string;
  /** The page of one transaction on that explorer, `{hash}` where its hash goes: each family's own form. */
  explorer_tx_url?: string;
  source: SimulatedSource | NodeSource;
}

/** An asset as configured: a token's decimals may be left to its contract, and a rate may come with it. */
export interface AssetSpec extends Omit<AssetConfig, 'decimals'> {
  decimals?: number;
  /** The sandbox's VND rate for the asset, where SANDBOX_RATE_<ASSET> does not give one. */
  rate_vnd?: string;
}

/** A network as configured, before a node has told the decimals of its tokens (chains/evm/node-chain.ts). */
export interface NetworkSpec extends Omit<NetworkConfig, 'assets'> {
  assets: AssetSpec[];
}

/** An asset on its network: what a quote, an address and a URI are made from. */
export interface AssetInfo extends AssetConfig {
  network: Network;
  /** What a customer reads: `USDT · TRC-20 (TRON)`. */
  label: string;
}

/** The Sepolia testnet's id: the simulated Ethereum and a default node look like it. */
export const SEPOLIA_CHAIN_ID = 11155111;

/** An asset as the API shows it (the checkout view's methods, GET /sandbox/chain): what is not set is null. */
export function assetFields({ asset, decimals, quote_decimals, label, token_contract, token_standard }: AssetInfo) {
  return { asset, decimals, quote_decimals, label, token_contract: token_contract ?? null, token_standard: token_standard ?? null };
}

/** `USDT · ERC-20 (Ethereum Sepolia)`, `ETH (Ethereum Sepolia)`. */
function labelOf(network: NetworkConfig, asset: AssetConfig): string {
  return `${asset.asset}${asset.token_standard ? ` · ${asset.token_standard}` : ''} (${network.name})`;
}

/** The configured networks, looked up by id and by asset. */
export class Networks {
  readonly all: readonly NetworkConfig[];
  readonly assets: readonly AssetInfo[];
  readonly #byId: Map<Network, NetworkConfig>;

  constructor(networks: readonly NetworkConfig[]) {
    this.all = networks;
    this.#byId = new Map(networks.map((n) => [n.id, n]));
    this.assets = networks.flatMap((n) => n.assets.map((a) => ({ ...a, network: n.id, label: labelOf(n, a) })));
  }

  get ids(): Network[] {
    return [...this.#byId.keys()];
  }

  get(id: Network): NetworkConfig | undefined {
    return this.#byId.get(id);
  }

  /** The network of an id the caller knows is configured (a stored payment's). */
  of(id: Network): NetworkConfig {
    const network = this.#byId.get(id);
    if (!network) throw new Error(`network ${id} is not configured`);
    return network;
  }

  find(asset: AssetCode, network: Network): AssetInfo | undefined {
    return this.assets.find((a) => a.asset === asset && a.network === network);
  }

  /** An asset the caller knows is configured (a stored payment's). */
  asset(asset: AssetCode, network: Network): AssetInfo {
    const info = this.find(asset, network);
    if (!info) throw new Error(`${asset} on ${network} is not configured`);
    return info;
  }
}
