// Each family's wallet part (family.ts, FamilyWallet) without the rest of its module: the element imports only these
// (checkout/wallet-links.ts), within its bundle's budget. test/chain/families.test.ts checks it lists every family's.
import { bitcoinWallet } from './bitcoin.js';
import { evmWallet } from './evm.js';
import type { FamilyWallet } from './family.js';
import { tronWallet } from './tron.js';

/** The one without a scheme (a bare address) last: it is the family of a payment URI that no other scheme names. */
export const WALLETS: readonly FamilyWallet[] = [evmWallet, bitcoinWallet, tronWallet];

/** The wallet part of the family a payment URI is written in. */
export const walletOf = (uri: string): FamilyWallet => WALLETS.find((w) => !w.scheme || uri.toLowerCase().startsWith(`${w.scheme}:`))!;
