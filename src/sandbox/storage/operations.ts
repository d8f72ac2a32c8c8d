// Statements for running the gateway: the values sealed with the data key (checked at start, sealed again once a
// rotation may be completed), its canary, the processes running and the keys they hold, which migrations the database
// has, and the figures /metrics reports.
import { one, type Sql } from './database.js';

/** A value sealed with a data key, named by what holds it. */
export interface SealedValue {
  kind: 'merchant' | 'merchant previous secret' | 'webhook endpoint' | 'canary';
  id: string;
  sealed: string;
}

export async function sealedValues(sql: Sql): Promise<SealedValue[]> {
  return sql.query<SealedValue>(
    `SELECT 'merchant' AS kind, client_id AS id, client_secret_sealed AS sealed FROM merchants
     UNION ALL SELECT 'merchant previous secret', client_id, previous_secret_sealed FROM merchants WHERE previous_secret_sealed IS NOT NULL
     UNION ALL SELECT 'webhook endpoint', endpoint_id, secret_sealed FROM webhook_endpoints
     UNION ALL SELECT 'canary', id::text, sealed FROM data_key_canary`,
  );
}

/** Writes a value sealed again (with the current key) in place of the one it opened from. */
export async function resealValue(sql: Sql, value: SealedValue, sealed: string, at: Date): Promise<void> {
  if (value.kind === 'merchant') await sql.query('UPDATE merchants SET client_secret_sealed = $2 WHERE client_id = $1', [value.id, sealed]);
  else if (value.kind === 'merchant previous secret') await sql.query('UPDATE merchants SET previous_secret_sealed = $2 WHERE client_id = $1', [value.id, sealed]);
  else if (value.kind === 'webhook endpoint') await sql.query('UPDATE webhook_endpoints SET secret_sealed = $2 WHERE endpoint_id = $1', [value.id, sealed]);
  else await writeCanary(sql, sealed, at);
}

export async function writeCanary(sql: Sql, sealed: string, at: Date): Promise<void> {
  await sql.query('INSERT INTO data_key_canary (id, sealed, sealed_at) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET sealed = $1, sealed_at = $2', [sealed, at]);
}

export async function readCanary(sql: Sql): Promise<string | undefined> {
  return (await one<{ sealed: string }>(sql, 'SELECT sealed FROM data_key_canary WHERE id = 1'))?.sealed;
}

/** A gateway process on the database, as its last beat told: the fingerprints of the keys it holds. */
export interface GatewayProcessRow {
  process_id: string;
  current_key: string;
  previous_keys: string[];
  sealing_key: string;
}

/** A process not seen for this long is gone (it died without a clean stop). */
export const PROCESS_GONE_SECONDS = 20;

/**
 * Every process seen lately, once this one's beat is written. Taken in a lock held to the end of the transaction: a
 * process starting waits for a rotation being completed, and the rotation sees it (data-keys.ts).
 */
export async function beat(sql: Sql, process: GatewayProcessRow): Promise<GatewayProcessRow[]> {
  await sql.query('LOCK TABLE gateway_processes IN EXCLUSIVE MODE');
  await sql.query(
    `INSERT INTO gateway_processes (process_id, started_at, seen_at, current_key, previous_keys, sealing_key) VALUES ($1, now(), now(), $2, $3, $4)
     ON CONFLICT (process_id) DO UPDATE SET seen_at = now(), sealing_key = EXCLUDED.sealing_key`,
    [process.process_id, process.current_key, process.previous_keys, process.sealing_key],
  );
  // Those killed long ago (no clean stop took them out): the list stays the size of a deployment.
  await sql.query(`DELETE FROM gateway_processes WHERE seen_at < now() - interval '1 day'`);
  return sql.query<GatewayProcessRow>(
    `SELECT process_id, current_key, previous_keys, sealing_key FROM gateway_processes WHERE seen_at > now() - make_interval(secs => $1) ORDER BY started_at`,
    [PROCESS_GONE_SECONDS],
  );
}

export async function processGone(sql: Sql, processId: string): Promise<void> {
  await sql.query('DELETE FROM gateway_processes WHERE process_id = $1', [processId]);
}

export async function appliedMigrations(sql: Sql): Promise<string[]> {
  return (await sql.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((row) => row.name);
}

/** Webhook deliveries still to be sent, and how long the oldest has waited since its event. */
export async function outboxBacklog(sql: Sql, now: Date): Promise<{ pending: number; oldest_seconds: number }> {
  return (await one<{ pending: number; oldest_seconds: number }>(
    sql,
    `SELECT count(*)::int AS pending, coalesce(extract(epoch FROM $1::timestamptz - min(created_at)), 0)::float8 AS oldest_seconds
     FROM webhook_deliveries WHERE status = 'pending'`,
    [now],
  ))!;
}

export async function paymentsByStatus(sql: Sql): Promise<{ status: string; payments: number }[]> {
  return sql.query('SELECT status, count(*)::int AS payments FROM payments GROUP BY status');
}
