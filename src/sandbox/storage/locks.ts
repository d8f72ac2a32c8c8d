// Every advisory lock of the gateway, named once: each key has one meaning, and only this module takes advisory locks
// (test/operations/advisory-locks.test.ts holds both). All are transaction-scoped: taken in a transaction, released
// with it. PostgreSQL keeps a single 64-bit key and a pair of 32-bit keys apart (the two forms never meet), so
// LOCK_KEYS and LOCK_SPACES are each unique on their own. A number here is never changed in one release: a process
// of the previous release runs beside this one during a rolling upgrade (test/operations/rolling-upgrade.postgres.test.ts)
// and would not wait for a lock under a new number.
import type { Sql } from './database.js';

/** Single keys: one lock each across the database. */
export const LOCK_KEYS = {
  /** Applying migrations: several processes start on one database at once; one migrates, the others wait. */
  migrations: 7310001,
  /**
   * Recording chain facts (exclusive) against decisions that depend on which payment settled first (shared:
   * accepting a held payment, refunding, replacing an expired link), so no fact lands while they decide; and mining
   * the simulator's blocks (exclusive), one process at a time. Mining and facts need no order between them (they write
   * apart: sim_* tables and the gateway's own): they share the key because both have held it from the first release,
   * and mining under a new number would mine beside the previous release (two blocks of one height). Splitting them
   * takes two releases (the first mines under both numbers).
   */
  chainFactsAndSimulatedMining: 7310002,
  /** The simulator's sends take turns, so two at once cannot both spend the same coins. */
  simulatedSending: 7310003,
} as const;

/** Pairs (space, hashtext(text)): one lock per text within a space. */
export const LOCK_SPACES = {
  /** Per webhook endpoint and link: queueing a delivery behind another against ending the one before it. */
  webhookQueues: 7310002,
  /** Per merchant: a payout is checked against the merchant's daily cap and signed one at a time. */
  merchantPayouts: 7310004,
} as const;

export type LockKey = (typeof LOCK_KEYS)[keyof typeof LOCK_KEYS];
export type LockSpace = (typeof LOCK_SPACES)[keyof typeof LOCK_SPACES];

export async function lockExclusive(sql: Sql, key: LockKey): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock($1)', [key]);
}

export async function lockShared(sql: Sql, key: LockKey): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock_shared($1)', [key]);
}

/** One lock per distinct text of `space`, taken in one order, so two transactions never wait for each other's. */
export async function lockEach(sql: Sql, space: LockSpace, texts: readonly string[]): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock($1, key) FROM (SELECT DISTINCT hashtext(text) AS key FROM unnest($2::text[]) AS text ORDER BY key) keys', [
    space,
    texts,
  ]);
}

/**
 * An Idempotency-Key's lock: a 64-bit hash of the text among the single keys (one meeting a key of LOCK_KEYS is
 * vanishingly rare, and costs only a wait).
 */
export async function lockHashed(sql: Sql, text: string): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [text]);
}
