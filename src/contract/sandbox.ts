// The sandbox-only endpoints (docs/api.md, "Sandbox endpoints"): the test wallet and the chains.
import * as z from 'zod/mini';
import { NETWORK_FAMILIES } from './assets.js';
import { CheckoutAsset } from './checkout.js';
import { assetCode, expected, networkId, object, text } from './fields.js';

/** POST /sandbox/wallet/transfers. */
export const WalletTransferRequest = object({
  to: text(120, 1),
  asset: assetCode,
  network: networkId,
  amount: z.string(expected('a decimal string such as "12.5"')).check(z.regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as "12.5"')),
});
export type WalletTransferRequest = z.infer<typeof WalletTransferRequest>;

/** POST /sandbox/chain/mine. */
export const MineRequest = object({
  blocks: z._default(z.int(expected('a whole number')).check(z.gte(1, 'must be at least 1'), z.lte(1000, 'must be at most 1000')), 1),
  network: z.optional(networkId),
});
export type MineRequest = z.infer<typeof MineRequest>;

/** One balance of the test wallet: a decimal string in the asset's units. */
export const WalletBalance = z.object({
  asset: z.string(),
  network: z.string(),
  address: z.string(),
  balance: z.string(),
});
export type WalletBalance = z.infer<typeof WalletBalance>;

/** GET /sandbox/wallet and POST /sandbox/wallet/faucet: the wallet's address on each network, and its balances. */
export const WalletState = z.object({
  addresses: z.record(z.string(), z.string()),
  balances: z.array(WalletBalance),
});
export type WalletState = z.infer<typeof WalletState>;

/** POST /sandbox/wallet/transfers: the transaction, waiting for a block. */
export const WalletTransferResponse = z.object({ tx_hash: z.string() });

/** The tip (height) of each network. */
const Tips = z.record(z.string(), z.int());

/** POST /sandbox/chain/mine: the height of each network mined. */
export const MineResponse = z.object({ tips: Tips });

/** One network as the gateway follows it. */
export const ChainNetwork = z.object({
  network: z.string(),
  name: z.string(),
  /** How its addresses and payment URIs are written. */
  family: z.enum(NETWORK_FAMILIES),
  /** Simulated by the gateway, or watched on a JSON-RPC node. */
  source: z.enum(['simulated', 'node']),
  /** The node's origin (scheme, host, port: no credentials, no path); null for a simulated network. */
  rpc_url: z.nullable(z.string()),
  chain_id: z.nullable(z.int()),
  /** The last block the gateway has followed, and its hash. */
  tip: z.int(),
  tip_hash: z.nullable(z.string()),
  /** False while its node is unreachable or behind: no new payment opens on it, and nothing on it expires. */
  available: z.boolean(),
  /** When the gateway last saw the node in full; null for a simulated network, which is never behind. */
  synced_at: z.nullable(z.string()),
  confirmations: z.int(),
  explorer_url: z.nullable(z.string()),
  /** The explorer's page of one transaction, `{hash}` where its hash goes (as in the checkout view's assets). */
  explorer_tx_url: z.nullable(z.string()),
  /** Its assets, each with these fields of the checkout view's own (CheckoutAsset). */
  assets: z.array(z.pick(CheckoutAsset, { asset: true, decimals: true, quote_decimals: true, label: true, token_contract: true, token_standard: true })),
});
export type ChainNetwork = z.infer<typeof ChainNetwork>;

/** GET /sandbox/chain: every network, and (as before) the tip of each. */
export const ChainState = z.object({ tips: Tips, networks: z.array(ChainNetwork) });
export type ChainState = z.infer<typeof ChainState>;
