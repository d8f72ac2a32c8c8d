// The operator's side of merchants (the merchants command, src/sandbox/merchants-command.ts; DESIGN section 10): adding
// one with its credentials, shown once, and its receiving keys; listing them; disabling one; rolling its secret; giving
// it a receiving key. No route reaches this: the operator runs it on the gateway's own database.
import type { Environment } from '../../../contract/index.js';
import { accountKeyFrom, accountKeyId, isSandboxAccount, type NetworkFamily } from '../../../codecs/addresses.js';
import type { Clock } from '../../clock.js';
import { conflict, invalid, notFound } from '../../errors.js';
import type { Database, Sql } from '../../storage/database.js';
import { accountKeysInUse, disableMerchant, listMerchants, merchantByClientId, useAccountKey, type MerchantRow } from '../../storage/merchants.js';
import { issueCredentials, type IssuedCredentials } from './credentials.js';
import type { Merchants } from './merchants.js';

/** A merchant as the operator lists it: never a secret. */
export interface MerchantAccount {
  merchant_id: string;
  name: string;
  client_id: string;
  created_at: string;
  disabled_at: string | null;
  /** The account's extended public key in use per family. */
  xpubs: Partial<Record<NetworkFamily, string>>;
}

/** A receiving key given for a family, and the argument it came in (named when it is refused). */
export interface GivenXpub {
  family: NetworkFamily;
  xpub: string;
  argument: string;
}

/** A receiving key checked by receivingKeyOf, with the account it is (one account, however its xpub is written). */
export type CheckedXpub = GivenXpub & { account_key: string };

/**
 * The given key, checked before anything is opened or written: an account's extended public key, never a private
 * one, and in live never an account of the public sandbox seed. An `invalid` naming the argument otherwise.
 */
export function receivingKeyOf({ family, xpub, argument }: GivenXpub, environment: Environment): CheckedXpub {
  try {
    accountKeyFrom(xpub);
  } catch (error) {
    throw invalid(`${argument} ${(error as Error).message}.`, [{ path: argument, message: (error as Error).message }]);
  }
  if (environment === 'live' && isSandboxAccount(family, xpub)) {
    throw invalid(`${argument} is the public sandbox seed's account: anyone can spend what reaches its addresses.`, [{ path: argument, message: 'must be an account of your own wallet' }]);
  }
  return { family, xpub, argument, account_key: accountKeyId(xpub) };
}

const NAME_MAX = 200;

export class MerchantAccounts {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly merchants: Merchants,
    private readonly environment: Environment,
  ) {}

  /** A new merchant with its receiving keys, all or nothing; its credentials are answered this once. */
  async add(name: string, keys: readonly CheckedXpub[]): Promise<IssuedCredentials & { merchant_id: string }> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > NAME_MAX) throw invalid(`The name must be 1 to ${NAME_MAX} characters.`, [{ path: '--name', message: `must be 1 to ${NAME_MAX} characters` }]);
    const credentials = issueCredentials(this.environment);
    return this.db.transaction(async (tx) => {
      const merchant = await this.merchants.upsert(
        { name: trimmed, clientId: credentials.client_id, clientSecret: credentials.client_secret, merchantKey: credentials.merchant_key },
        tx,
      );
      for (const key of keys) await this.#use(tx, merchant.merchant_id, key);
      return { merchant_id: merchant.merchant_id, ...credentials };
    });
  }

  async list(): Promise<MerchantAccount[]> {
    const [rows, keys] = await Promise.all([listMerchants(this.db), accountKeysInUse(this.db)]);
    return rows.map((row) => accountOf(row, keys.filter((key) => key.merchant_id === row.merchant_id)));
  }

  /** Disables the merchant (services/merchant/merchants.ts says what that ends): every process hears of it. */
  async disable(clientId: string): Promise<MerchantAccount> {
    const row = await disableMerchant(this.db, (await this.#merchant(clientId)).merchant_id);
    return this.#account(this.db, row!);
  }

  /** A new client secret, answered this once; the old one and its tokens end now (services/merchant/merchants.ts). */
  async rollSecret(clientId: string): Promise<{ client_id: string; client_secret: string }> {
    const roll = await this.merchants.rollSecret((await this.#merchant(clientId)).merchant_id);
    return { client_id: roll.client_id, client_secret: roll.client_secret };
  }

  /**
   * The merchant's receiving key for the family: its new payments there derive from it. A key it had before stays on
   * record with its index, so setting it again never hands out one of its addresses twice.
   */
  async setXpub(clientId: string, key: CheckedXpub): Promise<MerchantAccount> {
    const merchant = await this.#merchant(clientId);
    return this.db.transaction(async (tx) => {
      await this.#use(tx, merchant.merchant_id, key);
      return this.#account(tx, merchant);
    });
  }

  async #merchant(clientId: string): Promise<MerchantRow> {
    const row = clientId.includes('\0') ? undefined : await merchantByClientId(this.db, clientId);
    if (!row) throw notFound(`There is no merchant with client_id ${clientId}.`);
    return row;
  }

  async #account(sql: Sql, row: MerchantRow): Promise<MerchantAccount> {
    const [merchant] = await listMerchants(sql, [row.merchant_id]);
    return accountOf(merchant!, await accountKeysInUse(sql, [row.merchant_id]));
  }

  async #use(tx: Sql, merchantId: string, key: CheckedXpub): Promise<void> {
    const used = await useAccountKey(tx, { merchant_id: merchantId, family: key.family, account_key: key.account_key, account_xpub: key.xpub }, this.clock.now());
    // One account is one merchant's: two merchants at one account's addresses would each be paid the other's money.
    if (!used) throw conflict(`${key.argument} is another merchant's receiving key: each merchant receives at an account of its own.`);
  }
}

function accountOf(row: MerchantRow & { created_at: Date }, keys: readonly { family: string; account_xpub: string }[]): MerchantAccount {
  return {
    merchant_id: row.merchant_id,
    name: row.name,
    client_id: row.client_id,
    created_at: row.created_at.toISOString(),
    disabled_at: row.disabled_at?.toISOString() ?? null,
    xpubs: Object.fromEntries(keys.map((key) => [key.family, key.account_xpub])),
  };
}
