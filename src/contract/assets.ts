// The assets the crypto channel takes (DESIGN.md section 4). Sandbox chains are simulated; formats are real.

export const NETWORKS = ['TRON', 'ETHEREUM', 'BITCOIN'] as const;
export type Network = (typeof NETWORKS)[number];

export const ASSET_CODES = ['USDT', 'ETH', 'BTC'] as const;
export type AssetCode = (typeof ASSET_CODES)[number];

export interface AssetInfo {
  asset: AssetCode;
  network: Network;
  /** Atomic units per unit = 10^decimals. */
  decimals: number;
  /** Decimal places of a quote: what a person can type and a wallet shows (quotes are rounded up to it). */
  quote_decimals: number;
  /** What a customer reads: the token standard where there is one. */
  label: string;
  /** EIP-155 chain id (Sepolia) for EIP-681 URIs. */
  chain_id?: number;
  /** ERC-20 contract of the token on its chain. */
  token_contract?: string;
}

export const SEPOLIA_CHAIN_ID = 11155111;

export const ASSETS: readonly AssetInfo[] = [
  { asset: 'USDT', network: 'TRON', decimals: 6, quote_decimals: 2, label: 'USDT · TRC-20 (TRON)' },
  {
    asset: 'USDT',
    network: 'ETHEREUM',
    decimals: 6,
    quote_decimals: 2,
    label: 'USDT · ERC-20 (Ethereum Sepolia)',
    chain_id: SEPOLIA_CHAIN_ID,
    token_contract: '0xaA8E23Fb1079EA71e0a56F48a2aA51851D8433D0',
  },
  { asset: 'ETH', network: 'ETHEREUM', decimals: 18, quote_decimals: 6, label: 'ETH (Ethereum Sepolia)', chain_id: SEPOLIA_CHAIN_ID },
  { asset: 'BTC', network: 'BITCOIN', decimals: 8, quote_decimals: 8, label: 'BTC (Bitcoin testnet)' },
];

/** USDT on TRON is the default choice: the cheapest transfer and the one most Vietnamese wallets hold. */
export const DEFAULT_ASSET = ASSETS[0]!;

export function findAsset(asset: string, network: string): AssetInfo | undefined {
  return ASSETS.find((a) => a.asset === asset && a.network === network);
}
