// Every statement about a merchant's webhook endpoints (secrets sealed): adding, listing and removing them, and the
// mark a delivery leaves of the URL rule it found broken. What is sent to them is webhook-deliveries.ts's.
import type { WebhookUrlRule } from '../../contract/index.js';
import { one, type Sql } from './database.js';

export interface EndpointRow {
  endpoint_id: string;
  url: string;
  secret_sealed: string;
  created_at: Date;
}

/** An endpoint as the merchant reads it: with the URL rule a delivery found it breaking, if one did (migration 029). */
export interface EndpointViewRow extends EndpointRow {
  refused_rule: WebhookUrlRule | null;
  refused_reason: string | null;
  refused_at: Date | null;
}

const ENDPOINT_VIEW = 'endpoint_id, url, secret_sealed, created_at, refused_rule, refused_reason, refused_at';

export async function insertEndpoint(sql: Sql, merchantId: string, endpoint: EndpointRow): Promise<void> {
  await sql.query('INSERT INTO webhook_endpoints (endpoint_id, merchant_id, url, secret_sealed, created_at) VALUES ($1, $2, $3, $4, $5)', [
    endpoint.endpoint_id,
    merchantId,
    endpoint.url,
    endpoint.secret_sealed,
    endpoint.created_at,
  ]);
}

/** Stores an endpoint unless the merchant already has `most` live ones (the merchant's row locked meanwhile); whether it did. */
export async function insertEndpointWithin(sql: Sql, merchantId: string, endpoint: EndpointRow, most: number): Promise<boolean> {
  await sql.query('SELECT 1 FROM merchants WHERE merchant_id = $1 FOR UPDATE', [merchantId]);
  const rows = await sql.query(
    `INSERT INTO webhook_endpoints (endpoint_id, merchant_id, url, secret_sealed, created_at)
     SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM webhook_endpoints WHERE merchant_id = $2 AND deleted_at IS NULL) < $6
     RETURNING 1`,
    [endpoint.endpoint_id, merchantId, endpoint.url, endpoint.secret_sealed, endpoint.created_at, most],
  );
  return rows.length > 0;
}

export async function hasLiveEndpoint(sql: Sql, merchantId: string, url: string): Promise<boolean> {
  return (await one(sql, 'SELECT 1 FROM webhook_endpoints WHERE merchant_id = $1 AND url = $2 AND deleted_at IS NULL', [merchantId, url])) !== undefined;
}

export async function ownsEndpoint(sql: Sql, merchantId: string, endpointId: string): Promise<boolean> {
  return (await one(sql, 'SELECT 1 FROM webhook_endpoints WHERE endpoint_id = $1 AND merchant_id = $2', [endpointId, merchantId])) !== undefined;
}

export async function liveEndpoints(sql: Sql, merchantId: string): Promise<EndpointViewRow[]> {
  return sql.query<EndpointViewRow>(`SELECT ${ENDPOINT_VIEW} FROM webhook_endpoints WHERE merchant_id = $1 AND deleted_at IS NULL ORDER BY created_at, endpoint_id`, [
    merchantId,
  ]);
}

/** One of the merchant's endpoints, removed or not. */
export async function endpointOf(sql: Sql, merchantId: string, endpointId: string): Promise<EndpointViewRow | undefined> {
  return one<EndpointViewRow>(sql, `SELECT ${ENDPOINT_VIEW} FROM webhook_endpoints WHERE endpoint_id = $1 AND merchant_id = $2`, [endpointId, merchantId]);
}

/**
 * What an attempt found of its endpoint's URL: the rule it breaks and why (with the time of the first attempt that found
 * it refused since it was last allowed), or null when the rule let it through (the mark cleared).
 */
export async function markEndpointRefusal(sql: Sql, endpointId: string, refusal: { rule: WebhookUrlRule; reason: string } | null, at: Date): Promise<void> {
  await sql.query(
    `UPDATE webhook_endpoints SET refused_rule = $2, refused_reason = $3, refused_at = CASE WHEN $3::text IS NULL THEN NULL ELSE coalesce(refused_at, $4::timestamptz) END
     WHERE endpoint_id = $1 AND refused_reason IS DISTINCT FROM $3::text`,
    [endpointId, refusal?.rule ?? null, refusal?.reason ?? null, at],
  );
}

/** Marks an endpoint removed; false when the merchant has no such live endpoint. */
export async function removeEndpoint(sql: Sql, merchantId: string, endpointId: string, at: Date): Promise<boolean> {
  const rows = await sql.query('UPDATE webhook_endpoints SET deleted_at = $3 WHERE endpoint_id = $1 AND merchant_id = $2 AND deleted_at IS NULL RETURNING 1', [
    endpointId,
    merchantId,
    at,
  ]);
  return rows.length > 0;
}

/** Whether the merchant has this endpoint, not removed. */
export async function ownsLiveEndpoint(sql: Sql, merchantId: string, endpointId: string): Promise<boolean> {
  return (await one(sql, 'SELECT 1 FROM webhook_endpoints WHERE endpoint_id = $1 AND merchant_id = $2 AND deleted_at IS NULL', [endpointId, merchantId])) !== undefined;
}

export async function liveEndpointIds(sql: Sql, merchantId: string): Promise<string[]> {
  const rows = await sql.query<{ endpoint_id: string }>('SELECT endpoint_id FROM webhook_endpoints WHERE merchant_id = $1 AND deleted_at IS NULL', [merchantId]);
  return rows.map((r) => r.endpoint_id);
}
