// Every statement of the events API (GET /api/events): a merchant's events in the order of their `sequence`, the
// number each takes from the merchant's counter in the transaction that writes it (migration 026).
import { one, type Sql } from './database.js';

export interface MerchantEventRow {
  event_id: string;
  sequence: string;
  body: string;
}

/**
 * The merchant's next sequence. The counter's row stays locked until the transaction ends, so a later writer waits
 * for this one to commit (or roll back, giving the number back): sequences become visible in order and without gaps.
 */
export async function nextEventSequence(sql: Sql, merchantId: string): Promise<number> {
  const row = await one<{ last: string }>(
    sql,
    `INSERT INTO merchant_event_counters (merchant_id, last) VALUES ($1, 1)
     ON CONFLICT (merchant_id) DO UPDATE SET last = merchant_event_counters.last + 1 RETURNING last`,
    [merchantId],
  );
  return Number(row!.last);
}

/** The sequence of one of the merchant's events, if it is still kept (created at `since` or later). */
export async function sequenceOfEvent(sql: Sql, merchantId: string, eventId: string, since: Date): Promise<number | undefined> {
  const row = await one<{ sequence: string }>(
    sql,
    'SELECT sequence FROM webhook_events WHERE merchant_id = $1 AND event_id = $2 AND sequence IS NOT NULL AND created_at >= $3',
    [merchantId, eventId, since],
  );
  return row ? Number(row.sequence) : undefined;
}

/** Up to `limit` of the merchant's events after `afterSequence`, oldest first, of one type when given, kept since `since`. */
export async function eventsAfterSequence(
  sql: Sql,
  merchantId: string,
  afterSequence: number,
  limit: number,
  type: string | undefined,
  since: Date,
): Promise<MerchantEventRow[]> {
  // Ordered by the column, not by the text the answer carries (which would put 10 before 2).
  return sql.query<MerchantEventRow>(
    `SELECT event_id, sequence::text, body FROM webhook_events
     WHERE merchant_id = $1 AND sequence > $2 AND ($4::text IS NULL OR type = $4) AND created_at >= $5
     ORDER BY webhook_events.sequence LIMIT $3`,
    [merchantId, afterSequence, limit, type ?? null, since],
  );
}

/** One of the merchant's events (a test ping is none), if it is still kept. */
export async function eventOfMerchant(sql: Sql, merchantId: string, eventId: string, since: Date): Promise<MerchantEventRow | undefined> {
  return one<MerchantEventRow>(
    sql,
    'SELECT event_id, sequence::text, body FROM webhook_events WHERE merchant_id = $1 AND event_id = $2 AND sequence IS NOT NULL AND created_at >= $3',
    [merchantId, eventId, since],
  );
}
