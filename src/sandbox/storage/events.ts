// Every statement about payment events: each change of a payment as the element saw it, which the event streams
// replay (Last-Event-ID), announced with NOTIFY when the transaction that wrote it commits.
import type { Payment } from '../../contract/index.js';
import { one, type Sql } from './database.js';

export interface PaymentEventRow {
  event_id: number;
  payment: Payment;
}

export const PAYMENT_EVENTS_CHANNEL = 'payment_events';

export async function insertEvent(sql: Sql, ref: string, payment: Payment, at: Date): Promise<void> {
  await sql.query('INSERT INTO payment_events (payment_link_ref, payment_id, payment, created_at) VALUES ($1, $2, $3, $4)', [
    ref,
    payment.payment_id,
    JSON.stringify(payment),
    at,
  ]);
  await sql.query('SELECT pg_notify($1, $2)', [PAYMENT_EVENTS_CHANNEL, ref]);
}

export async function eventsAfter(sql: Sql, ref: string, eventId: number): Promise<PaymentEventRow[]> {
  return sql.query<PaymentEventRow>('SELECT event_id, payment FROM payment_events WHERE payment_link_ref = $1 AND event_id > $2 ORDER BY event_id', [ref, eventId]);
}

export async function latestEvent(sql: Sql, ref: string): Promise<PaymentEventRow | undefined> {
  return one<PaymentEventRow>(sql, 'SELECT event_id, payment FROM payment_events WHERE payment_link_ref = $1 ORDER BY event_id DESC LIMIT 1', [ref]);
}
