// The sandbox-only endpoints (DESIGN.md section 4): the test wallet and the simulated chain.
import * as z from 'zod/mini';
import { ASSET_CODES, NETWORKS } from './assets.js';
import { expected, object, text } from './fields.js';

/** POST /sandbox/wallet/transfers. */
export const WalletTransferRequest = object({
  to: text(120, 1),
  asset: z.enum(ASSET_CODES, expected(`one of ${ASSET_CODES.join(', ')}`)),
  network: z.enum(NETWORKS, expected(`one of ${NETWORKS.join(', ')}`)),
  amount: z.string(expected('a decimal string such as "12.5"')).check(z.regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as "12.5"')),
});
export type WalletTransferRequest = z.infer<typeof WalletTransferRequest>;

/** POST /sandbox/chain/mine. */
export const MineRequest = object({
  blocks: z._default(z.int(expected('a whole number')).check(z.gte(1, 'must be at least 1'), z.lte(1000, 'must be at most 1000')), 1),
  network: z.optional(z.enum(NETWORKS, expected(`one of ${NETWORKS.join(', ')}`))),
});
export type MineRequest = z.infer<typeof MineRequest>;

/** One balance of the test wallet: a decimal string in the asset's units. */
export const WalletBalance = z.object({
  asset: z.enum(ASSET_CODES),
  network: z.enum(NETWORKS),
  address: z.string(),
  balance: z.string(),
});
export type WalletBalance = z.infer<typeof WalletBalance>;

/** GET /sandbox/wallet and POST /sandbox/wallet/faucet: the wallet's address on each network, and its balances. */
export const WalletState = z.object({
  addresses: z.record(z.enum(NETWORKS), z.string()),
  balances: z.array(WalletBalance),
});
export type WalletState = z.infer<typeof WalletState>;

/** POST /sandbox/wallet/transfers: the transaction, in the mempool until a block. */
export const WalletTransferResponse = z.object({ tx_hash: z.string() });

/** POST /sandbox/chain/mine: the height of each network mined. */
export const MineResponse = z.object({ tips: z.partialRecord(z.enum(NETWORKS), z.int()) });
