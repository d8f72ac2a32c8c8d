// The network families' codecs, each family's module by its name (docs/networks.md, "Network families: add a
// family"). Adding a family is its module and its line here (and its wallet part in wallets.ts, for the element).
import type { NetworkFamily } from '../../contract/index.js';
import { bitcoin } from './bitcoin.js';
import { evm } from './evm.js';
import type { Family } from './family.js';
import { tron } from './tron.js';

export type { Family, FamilyWallet, ParsedPaymentUri, PaymentTarget, UriAsset, UriNetwork } from './family.js';

/** In the order the merchants command lists their receiving keys (`--xpub-evm`, `--xpub-tron`, `--xpub-bitcoin`). */
export const FAMILIES: Readonly<Record<NetworkFamily, Family>> = { evm, tron, bitcoin };

export const FAMILY_NAMES = Object.keys(FAMILIES) as NetworkFamily[];
