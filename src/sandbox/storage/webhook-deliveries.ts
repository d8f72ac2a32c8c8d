// Every statement about what is sent to webhook endpoints (webhook-endpoints.ts): the outbox of events written with the
// change that caused them, one delivery per endpoint in a queue per endpoint and link, claimed by the dispatcher of any
// gateway process, and each delivery's attempts.
import type { WebhookAttempt, WebhookDelivery, WebhookDeliveryType } from '../../contract/index.js';
import { one, type Sql } from './database.js';
import { LOCK_SPACES, lockEach } from './locks.js';

/** NOTIFY channel: a delivery was queued, so every gateway process on the database wakes its dispatcher. */
export const WEBHOOKS_QUEUED = 'pay_checkout_webhooks';

export interface DeliveryRow {
  delivery_id: number;
  event_id: string;
  type: WebhookDeliveryType;
  payment_link_ref: string | null;
  status: WebhookDelivery['status'];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

export interface DeliveryDetailRow extends DeliveryRow {
  endpoint_id: string;
  body: string;
}

export interface AttemptRow {
  attempted_at: Date;
  duration_ms: number;
  status_code: number | null;
  response_body: string | null;
  response_truncated: boolean;
  error: WebhookAttempt['error'];
}

export interface ClaimedDelivery {
  delivery_id: number;
  attempts: number;
  endpoint_id: string;
  url: string;
  secret_sealed: string;
  /** What the endpoint's mark says now (markEndpointRefusal): written again only when an attempt finds otherwise. */
  refused_reason: string | null;
  body: string;
  event_id: string;
  event_at: Date;
}

const DELIVERY = `d.delivery_id, d.event_id, e.type, e.payment_link_ref, d.status, d.attempts, d.last_status_code, d.last_error, d.next_attempt_at, d.delivered_at, d.created_at`;

/** What was still waiting for a removed endpoint fails, never sent. */
export async function failPendingDeliveries(sql: Sql, endpointId: string, reason: string): Promise<void> {
  await sql.query(
    `UPDATE webhook_deliveries SET status = 'failed', last_error = $2, next_attempt_at = NULL, locked_until = NULL WHERE endpoint_id = $1 AND status = 'pending'`,
    [endpointId, reason],
  );
}

/** An endpoint's deliveries, newest first; only those of one payment link when `paymentLinkRef` is given. */
export async function deliveriesOfEndpoint(sql: Sql, endpointId: string, paymentLinkRef: string | undefined, limit: number): Promise<DeliveryRow[]> {
  return sql.query<DeliveryRow>(
    `SELECT ${DELIVERY} FROM webhook_deliveries d JOIN webhook_events e USING (event_id)
     WHERE d.endpoint_id = $1 AND ($2::text IS NULL OR e.payment_link_ref = $2) ORDER BY d.delivery_id DESC LIMIT $3`,
    [endpointId, paymentLinkRef ?? null, limit],
  );
}

/** Whether a delivery earlier in the queue (same endpoint, same link) of the delivery aliased `d` is still pending. */
const pendingBefore = (d: string) =>
  `EXISTS (SELECT 1 FROM webhook_deliveries s WHERE s.status = 'pending' AND s.endpoint_id = ${d}.endpoint_id
             AND s.ordering_key = ${d}.ordering_key AND s.delivery_id < ${d}.delivery_id)`;

/**
 * Makes a merchant's delivery pending again, whatever became of it: due now, or, behind an earlier delivery of its
 * endpoint and link still pending, once that one is done (as a delivery queued there, under the same lock); undefined
 * when it is not theirs or its endpoint was removed. `sql` is a transaction: the lock lasts until its end.
 */
export async function redeliverNow(sql: Sql, merchantId: string, deliveryId: number, at: Date): Promise<DeliveryRow | undefined> {
  const queue = await one<{ endpoint_id: string; ordering_key: string }>(
    sql,
    `SELECT d.endpoint_id, d.ordering_key FROM webhook_deliveries d JOIN webhook_events e USING (event_id)
     WHERE d.delivery_id = $1 AND e.merchant_id = $2`,
    [deliveryId, merchantId],
  );
  if (!queue) return undefined;
  await lockQueues(sql, [queue.endpoint_id], queue.ordering_key);
  return one<DeliveryRow>(
    sql,
    `UPDATE webhook_deliveries d SET status = 'pending', locked_until = NULL,
       next_attempt_at = CASE WHEN ${pendingBefore('d')} THEN NULL ELSE $3::timestamptz END
     FROM webhook_events e, webhook_endpoints w
     WHERE d.delivery_id = $1 AND e.event_id = d.event_id AND e.merchant_id = $2 AND w.endpoint_id = d.endpoint_id AND w.deleted_at IS NULL
     RETURNING ${DELIVERY}`,
    [deliveryId, merchantId, at],
  );
}

/** A merchant's delivery with the body it sends; undefined when it is not theirs. */
export async function deliveryOfMerchant(sql: Sql, merchantId: string, deliveryId: number): Promise<DeliveryDetailRow | undefined> {
  return one<DeliveryDetailRow>(
    sql,
    `SELECT ${DELIVERY}, d.endpoint_id, e.body FROM webhook_deliveries d JOIN webhook_events e USING (event_id)
     WHERE d.delivery_id = $1 AND e.merchant_id = $2`,
    [deliveryId, merchantId],
  );
}

/** Every attempt of a delivery, oldest first. */
export async function attemptsOfDelivery(sql: Sql, deliveryId: number): Promise<AttemptRow[]> {
  return sql.query<AttemptRow>(
    'SELECT attempted_at, duration_ms, status_code, response_body, response_truncated, error FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_id',
    [deliveryId],
  );
}

/** The delivery just queued of an event to an endpoint. */
export async function deliveryOfEvent(sql: Sql, eventId: string, endpointId: string): Promise<DeliveryRow> {
  return (await one<DeliveryRow>(
    sql,
    `SELECT ${DELIVERY} FROM webhook_deliveries d JOIN webhook_events e USING (event_id) WHERE d.event_id = $1 AND d.endpoint_id = $2`,
    [eventId, endpointId],
  ))!;
}

/**
 * An event and one delivery of it per endpoint, in the transaction of the change; the dispatchers hear of it at commit.
 * Deliveries of one link go in order; an event about no link (a test) waits for none. An event with a `sequence` is
 * kept for the events API even when there is no endpoint to deliver it to (a test ping has none).
 */
export async function enqueueEvent(
  sql: Sql,
  event: { event_id: string; merchant_id: string; type: WebhookDeliveryType; payment_link_ref: string | null; body: string; created_at: Date; sequence?: number },
  endpointIds: readonly string[],
): Promise<void> {
  await sql.query('INSERT INTO webhook_events (event_id, merchant_id, type, payment_link_ref, body, created_at, sequence) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    event.event_id,
    event.merchant_id,
    event.type,
    event.payment_link_ref,
    event.body,
    event.created_at,
    event.sequence ?? null,
  ]);
  if (!endpointIds.length) return;
  const orderingKey = event.payment_link_ref ?? event.event_id;
  await lockQueues(sql, endpointIds, orderingKey);
  // Due at once, or, behind a delivery still pending, no time of its own until that one is done (recordAttempt).
  await sql.query(
    `INSERT INTO webhook_deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, created_at)
     SELECT $1, endpoint_id, $3, 'pending',
       CASE WHEN EXISTS (SELECT 1 FROM webhook_deliveries s WHERE s.status = 'pending' AND s.endpoint_id = q.endpoint_id AND s.ordering_key = $3) THEN NULL ELSE $4::timestamptz END,
       $4
     FROM unnest($2::text[]) AS q (endpoint_id)`,
    [event.event_id, endpointIds, orderingKey, event.created_at],
  );
  await sql.query('SELECT pg_notify($1, $2)', [WEBHOOKS_QUEUED, '']);
}

/**
 * Takes due deliveries whose earlier siblings (same endpoint, same link) are done, at most `perMerchant` of a merchant
 * in flight counting those other processes hold, and leases them until `leaseUntil`. It reads only deliveries that
 * are due (one per endpoint and link: those behind it have no time yet) and those leased, not the backlog waiting
 * out its retries or behind an earlier delivery, so a merchant whose receivers are down costs the others nothing.
 */
export async function claimDueDeliveries(sql: Sql, now: Date, limit: number, leaseUntil: Date, perMerchant: number): Promise<ClaimedDelivery[]> {
  return sql.query<ClaimedDelivery>(
    // Each step is computed once (MATERIALIZED), whatever the planner believes of the tables' sizes: PGlite has no
    // autovacuum, so its statistics can say one row where a backlog holds thousands, and a plan that re-ran a step
    // for every row it joined took seconds per claim. For the same reason the deliveries are read by their own
    // conditions (the indexes of what is due and what is leased) before any join: driven from the endpoints, a plan on
    // stale statistics read every pending delivery of each.
    `WITH in_flight AS MATERIALIZED (
       SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' AND locked_until > $1),
     leased AS MATERIALIZED (
       SELECT w.merchant_id, count(*) AS held FROM in_flight d JOIN webhook_endpoints w USING (endpoint_id) GROUP BY w.merchant_id),
     due_now AS MATERIALIZED (
       SELECT delivery_id, endpoint_id, ordering_key FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)),
     -- A delivery redelivered before a later one of its queue leaves that one due behind it: it waits, as the rest do.
     heads AS MATERIALIZED (
       SELECT d.delivery_id, w.merchant_id FROM due_now d JOIN webhook_endpoints w USING (endpoint_id)
       WHERE NOT ${pendingBefore('d')}),
     ready AS MATERIALIZED (
       SELECT delivery_id FROM (
         SELECT h.delivery_id, coalesce(l.held, 0) + row_number() OVER (PARTITION BY h.merchant_id ORDER BY h.delivery_id) AS slot
         FROM heads h LEFT JOIN leased l USING (merchant_id)) numbered
       WHERE slot <= $4),
     -- Locking re-reads a row another process changed since this statement's snapshot, and checks this WHERE
     -- again on it: the row's own conditions stand here, so a delivery leased or sent meanwhile is not taken twice.
     due AS (
       SELECT d.delivery_id FROM webhook_deliveries d
       WHERE d.delivery_id IN (SELECT delivery_id FROM ready)
         AND d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.locked_until IS NULL OR d.locked_until <= $1)
       ORDER BY d.delivery_id LIMIT $2 FOR UPDATE OF d SKIP LOCKED)
     UPDATE webhook_deliveries d SET locked_until = $3 FROM due, webhook_endpoints w, webhook_events e
     WHERE d.delivery_id = due.delivery_id AND w.endpoint_id = d.endpoint_id AND e.event_id = d.event_id
     RETURNING d.delivery_id, d.attempts, d.endpoint_id, w.url, w.secret_sealed, w.refused_reason, e.body, e.event_id, e.created_at AS event_at`,
    [now, limit, leaseUntil, perMerchant],
  );
}

/** An attempt's outcome: the delivery's state after it, and the attempt itself in its log. */
export async function recordAttempt(
  sql: Sql,
  deliveryId: number,
  attempt: { status: WebhookDelivery['status']; attempts: number; status_code: number | null; error: string | null; next_attempt_at: Date | null; delivered_at: Date | null },
  logged: AttemptRow,
): Promise<void> {
  await sql.query(
    `INSERT INTO webhook_attempts (delivery_id, attempted_at, duration_ms, status_code, response_body, response_truncated, error) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [deliveryId, logged.attempted_at, logged.duration_ms, logged.status_code, logged.response_body, logged.response_truncated, logged.error],
  );
  const [queue] = await sql.query<{ endpoint_id: string; ordering_key: string }>(
    `UPDATE webhook_deliveries SET status = $2, attempts = $3, last_status_code = $4, last_error = $5, locked_until = NULL,
       next_attempt_at = $6, delivered_at = $7 WHERE delivery_id = $1 RETURNING endpoint_id, ordering_key`,
    [deliveryId, attempt.status, attempt.attempts, attempt.status_code, attempt.error, attempt.next_attempt_at, attempt.delivered_at],
  );
  if (attempt.status === 'pending' || !queue) return;
  // Done with: the first delivery still pending behind it is due from now. Read after the lock, so a delivery queued
  // behind this one meanwhile is seen.
  await lockQueues(sql, [queue.endpoint_id], queue.ordering_key);
  await sql.query(
    `UPDATE webhook_deliveries SET next_attempt_at = greatest(created_at, $3) WHERE delivery_id = (
       SELECT delivery_id FROM webhook_deliveries WHERE status = 'pending' AND endpoint_id = $1 AND ordering_key = $2 ORDER BY delivery_id LIMIT 1)
     AND next_attempt_at IS NULL`,
    [queue.endpoint_id, queue.ordering_key, logged.attempted_at],
  );
}

/**
 * Serializes what queues a delivery behind another and what ends the one before it, for each endpoint and link: else
 * a delivery queued as the one before it ends would wait for a turn nobody gives it. Taken in one order, so two
 * transactions never wait for each other's.
 */
async function lockQueues(sql: Sql, endpointIds: readonly string[], orderingKey: string): Promise<void> {
  await lockEach(sql, LOCK_SPACES.webhookQueues, endpointIds.map((endpointId) => `${endpointId} ${orderingKey}`));
}

/** A claimed delivery given back unsent (its process is stopping): due again at once, for any process. */
export async function releaseLease(sql: Sql, deliveryId: number): Promise<void> {
  await sql.query(`UPDATE webhook_deliveries SET locked_until = NULL WHERE delivery_id = $1 AND status = 'pending'`, [deliveryId]);
}
