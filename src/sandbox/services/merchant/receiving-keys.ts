// Where each merchant's one-time addresses derive from (DESIGN section 10): its own account key for the family, at that
// account's next index, taken in the transaction that opens the payment; in the sandbox, a family it has no key for
// derives from the sandbox's keys at the global index, as before (the sandbox merchant's: the sandbox seed and
// HD_XPUB_*; any other's: the sandbox seed alone). A live merchant takes no payment on a family it has no key for: its
// links do not offer the coin (docs/operations.md, "Merchants").
import type { HDKey } from '@scure/bip32';
import { deriveAddress, receivingKey, type NetworkFamily } from '../../../codecs/addresses.js';
import { invalid } from '../../errors.js';
import { GLOBAL_COUNTER } from '../../storage/address-guard.js';
import type { Sql } from '../../storage/database.js';
import { accountKeysInUse, takeAccountIndex } from '../../storage/merchants.js';
import { nextAddressIndex } from '../../storage/payments.js';
import type { AddressGuard } from './address-guard.js';
import type { Merchants } from './merchants.js';

/** A payment's one-time address, its index, and the account key it derived from (null: the sandbox's keys). */
export interface OneTimeAddress {
  address: string;
  address_index: number;
  account_key: string | null;
}

/** The sandbox's keys, for families a merchant has no key of its own for. */
export interface SandboxKeys {
  sandboxMerchantId?: string;
  /** The sandbox merchant's: the sandbox seed, and HD_XPUB_* where given. */
  sandboxMerchant: HDKey;
  /** Any other merchant's: the sandbox seed. */
  others: HDKey;
}

/** How long a merchant's families are trusted without a word from the database (set-xpub notifies every process). */
const CACHE_MS = 60_000;

export class ReceivingKeys {
  readonly #families;
  /** The root of each account key met, derived once: an address is one child derivation from it. */
  readonly #roots = new Map<string, HDKey>();

  constructor(
    merchants: Merchants,
    /** None in live: every address derives from a merchant's own key. */
    private readonly sandbox: SandboxKeys | undefined,
    /** Told each index before it is handed out (a restore never hands it out again). */
    private readonly guard?: AddressGuard,
  ) {
    this.#families = merchants.cache<ReadonlySet<string>>(CACHE_MS, 10_000);
  }

  /** The families the merchant takes payments in; undefined for every family (the sandbox). */
  async families(sql: Sql, merchantId: string): Promise<ReadonlySet<string> | undefined> {
    if (this.sandbox) return undefined;
    return this.#families.get(merchantId, async () => new Set((await accountKeysInUse(sql, [merchantId])).map((key) => key.family)));
  }

  /** The next one-time address of the merchant in the family, in `tx`: the transaction that writes the payment. */
  async next(tx: Sql, merchantId: string, family: NetworkFamily, network: string): Promise<OneTimeAddress> {
    const own = await takeAccountIndex(tx, merchantId, family);
    if (own) {
      await this.guard?.taking(`${family}:${own.account_key}`, own.index);
      return { address: deriveAddress(this.#root(own.account_key, family, own.account_xpub), family, own.index), address_index: own.index, account_key: own.account_key };
    }
    if (!this.sandbox) {
      throw invalid(`This merchant takes no payments on ${network}: it has no receiving key for it.`, [{ path: 'network', message: "must be a network of the link's coins" }]);
    }
    const root = merchantId === this.sandbox.sandboxMerchantId ? this.sandbox.sandboxMerchant : this.sandbox.others;
    const index = await nextAddressIndex(tx);
    await this.guard?.taking(GLOBAL_COUNTER, index);
    return { address: deriveAddress(root, family, index), address_index: index, account_key: null };
  }

  #root(accountKey: string, family: NetworkFamily, xpub: string): HDKey {
    let root = this.#roots.get(accountKey);
    if (!root) this.#roots.set(accountKey, (root = receivingKey(undefined, { [family]: xpub })));
    return root;
  }
}
