// Each family's wallet part (family.ts, FamilyWallet), kept here rather than in the family's module: the element
// imports only these (checkout/wallet-links.ts), and so neither the codecs' libraries (an element-only install has
// none: test/build/pack.test.ts) nor their bytes. test/chain/families.test.ts checks it lists every family's.
import type { FamilyWallet } from './family.js';

/** EIP-681 links open any wallet registered for `ethereum:` and MetaMask's; a coin-only link (Trust Wallet's) is right on chain 1 only (`@1`, or none). */
export const evmWallet: FamilyWallet = { scheme: 'ethereum', slip44: 60, main: /^ethereum:[^@?/]+(@1)?(\/|\?|$)/i, metamask: true };

export const bitcoinWallet: FamilyWallet = { scheme: 'bitcoin', slip44: 0 };

/**
 * No link of its own: `tron:` is registered by no exchange app and few wallets (a first button that
 * would do nothing), so the copy buttons are the way, and Trust Wallet's link on a main network.
 */
export const tronWallet: FamilyWallet = { slip44: 195 };

/** The one without a scheme (a bare address) last: it is the family of a payment URI that no other scheme names. */
export const WALLETS: readonly FamilyWallet[] = [evmWallet, bitcoinWallet, tronWallet];

/** The wallet part of the family a payment URI is written in. */
export const walletOf = (uri: string): FamilyWallet => WALLETS.find((w) => !w.scheme || uri.toLowerCase().startsWith(`${w.scheme}:`))!;
