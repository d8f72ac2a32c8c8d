// A merchant's payout wallets (docs/api.md, "Payout wallets"): where its refunds on a node's network are paid from, and
// the daily cap they are sent within.
import * as z from 'zod/mini';
import { DECIMAL } from './rules.js';

export const PayoutWallet = z.object({
  network: z.string(),
  /** The merchant's own payout wallet on this network: fund it with the coins and the gas its refunds need. */
  address: z.string(),
  /** Its BIP32 path from the operator's PAYOUT_HD_SEED, such as m/44'/60'/3'/0/0: any wallet finds it from the seed. */
  derivation_path: z.string(),
  /** What it holds of each asset, a decimal string, waiting transfers included; null while the node cannot say. */
  balances: z.array(z.object({ asset: z.string(), balance: z.nullable(z.string().check(z.regex(DECIMAL, 'must be a decimal string'))) })),
});
export type PayoutWallet = z.infer<typeof PayoutWallet>;

/** GET /api/payouts/wallets: the merchant's payout wallet on each network watched on a node (none on simulated ones). */
export const PayoutWallets = z.object({
  /** What the merchant's payouts may send in any 24 h, in VND (PAYOUT_DAILY_CAP_VND); 0: none is sent until the operator sets one. */
  daily_cap_vnd: z.int(),
  /** VND of the merchant's payouts signed in the last 24 h. */
  sent_last_24h_vnd: z.int(),
  wallets: z.array(PayoutWallet),
});
export type PayoutWallets = z.infer<typeof PayoutWallets>;
