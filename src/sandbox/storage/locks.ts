// Advisory locks: taken in a transaction, released with it.
import type { Sql } from './database.js';

export async function lockExclusive(sql: Sql, key: number): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock($1)', [key]);
}

export async function lockShared(sql: Sql, key: number): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock_shared($1)', [key]);
}
