// Payment changes as events: written in the transaction that makes the change, announced with NOTIFY on commit,
// so every gateway process on the database streams every change, and a reconnecting client replays what it missed.
import type { Payment } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { one, type Database, type Sql } from '../storage/database.js';

const CHANNEL = 'payment_events';

export interface PaymentEvent {
  event_id: number;
  payment: Payment;
}

export class PaymentEvents {
  readonly #subscribers = new Map<string, Set<() => void>>();
  #unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Starts hearing NOTIFY, from this process and any other on the database. */
  async start(): Promise<void> {
    this.#unlisten = await this.db.listen(CHANNEL, (ref) => {
      for (const wake of this.#subscribers.get(ref) ?? []) wake();
    });
  }

  async stop(): Promise<void> {
    await this.#unlisten?.();
  }

  /** Records a payment as it now is; subscribers of its link hear of it when the transaction commits. */
  async record(tx: Sql, ref: string, payment: Payment): Promise<void> {
    await tx.query('INSERT INTO payment_events (payment_link_ref, payment_id, payment, created_at) VALUES ($1, $2, $3, $4)', [
      ref,
      payment.payment_id,
      JSON.stringify(payment),
      this.clock.now(),
    ]);
    await tx.query('SELECT pg_notify($1, $2)', [CHANNEL, ref]);
  }

  /** The last payment recorded for this payment id (what the element last saw). */
  async last(sql: Sql, paymentId: string): Promise<Payment | undefined> {
    const row = await one<{ payment: Payment }>(sql, 'SELECT payment FROM payment_events WHERE payment_id = $1 ORDER BY event_id DESC LIMIT 1', [
      paymentId,
    ]);
    return row?.payment;
  }

  /** Events of a link after `afterId`; without it, only the latest (the current state). */
  async since(ref: string, afterId: number | undefined): Promise<PaymentEvent[]> {
    if (afterId === undefined) {
      const latest = await one<PaymentEvent>(this.db, 'SELECT event_id, payment FROM payment_events WHERE payment_link_ref = $1 ORDER BY event_id DESC LIMIT 1', [ref]);
      return latest ? [latest] : [];
    }
    return this.db.query<PaymentEvent>('SELECT event_id, payment FROM payment_events WHERE payment_link_ref = $1 AND event_id > $2 ORDER BY event_id', [
      ref,
      afterId,
    ]);
  }

  /** Calls `wake` whenever an event of this link may have been recorded. */
  subscribe(ref: string, wake: () => void): () => void {
    let set = this.#subscribers.get(ref);
    if (!set) this.#subscribers.set(ref, (set = new Set()));
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0) this.#subscribers.delete(ref);
    };
  }
}
