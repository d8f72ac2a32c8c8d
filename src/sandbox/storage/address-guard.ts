// The statements of the address guard (services/merchant/address-guard.ts): the database's identity, and every counter
// one-time address indexes are taken from (the global sequence and each merchant account's next_index).
import type { NetworkFamily } from '../../codecs/addresses.js';
import { one, type Sql } from './database.js';

/** Which database this is: the cluster's system identifier and the payments table's object id. */
export interface DatabaseIdentity {
  system_identifier: string;
  payments_oid: string;
}

/** An address counter: `global` (payment_address_index) or `<family>:<account_key>`, and the next index it gives. */
export interface AddressCounter {
  counter: string;
  next: number;
  /** A merchant account's: its family and extended public key, which its addresses derive from. */
  account?: { family: NetworkFamily; xpub: string };
}

export const GLOBAL_COUNTER = 'global';

export async function currentIdentity(sql: Sql): Promise<DatabaseIdentity> {
  return (await one<DatabaseIdentity>(
    sql,
    `SELECT (SELECT system_identifier::text FROM pg_control_system()) AS system_identifier, 'payments'::regclass::oid::bigint::text AS payments_oid`,
  ))!;
}

export async function recordedIdentity(sql: Sql): Promise<DatabaseIdentity | undefined> {
  return one<DatabaseIdentity>(sql, 'SELECT system_identifier, payments_oid::text AS payments_oid FROM address_guard');
}

export async function recordIdentity(sql: Sql, identity: DatabaseIdentity, at: string): Promise<void> {
  await sql.query(
    `INSERT INTO address_guard (id, system_identifier, payments_oid, checked_at) VALUES (true, $1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET system_identifier = EXCLUDED.system_identifier, payments_oid = EXCLUDED.payments_oid, checked_at = EXCLUDED.checked_at`,
    [identity.system_identifier, identity.payments_oid, at],
  );
}

/** Every counter's next index, the global one first. */
export async function addressCounters(sql: Sql): Promise<AddressCounter[]> {
  const global = (await one<{ next: string }>(sql, 'SELECT (CASE WHEN is_called THEN last_value + 1 ELSE last_value END)::text AS next FROM payment_address_index'))!;
  const accounts = await sql.query<{ counter: string; next: string; family: NetworkFamily; account_xpub: string }>(
    `SELECT family || ':' || account_key AS counter, next_index::text AS next, family, account_xpub FROM merchant_account_keys ORDER BY family, account_key`,
  );
  return [
    { counter: GLOBAL_COUNTER, next: Number(global.next) },
    ...accounts.map((row) => ({ counter: row.counter, next: Number(row.next), account: { family: row.family, xpub: row.account_xpub } })),
  ];
}

/** Moves a counter on to give `next` next (never back). */
export async function moveCounter(sql: Sql, counter: string, next: number): Promise<void> {
  if (counter === GLOBAL_COUNTER) {
    await sql.query(`SELECT setval('payment_address_index', GREATEST($1::bigint, (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM payment_address_index)), false)`, [next]);
    return;
  }
  const split = counter.indexOf(':');
  await sql.query('UPDATE merchant_account_keys SET next_index = GREATEST(next_index, LEAST($3::bigint, 2147483648)) WHERE family = $1 AND account_key = $2', [
    counter.slice(0, split),
    counter.slice(split + 1),
    next,
  ]);
}
