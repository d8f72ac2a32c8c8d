// Reconciliation: a link's statuses re-derived from its facts (payment-state.ts, through the link reader) and written
// back: the one place a status changes. What changed is handed to the sinks, in the same transaction: the customer's
// event stream (customer/payment-events.ts) and the merchant's webhooks (webhooks/outbox.ts).
import type { Payment, WebhookEventType } from '../../../contract/index.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../clock.js';
import type { Sql } from '../../storage/database.js';
import { lockPaymentsOfLink } from '../../storage/link-facts.js';
import { readLink, writeDerivedLink, writeDerivedPayment, type DerivedPayment } from '../../storage/payments.js';
import { NO_LINK, type LinkReader, type LinkSnapshot } from './link-reader.js';
import type { PaymentState } from './payment-state.js';

/** What a reconciliation found and wrote. */
export interface LinkChange {
  /** The link as written. */
  after: LinkSnapshot;
  /** Status changes the merchant hears of, in order. */
  changes: { type: WebhookEventType; paymentId?: string }[];
  /** The last event the customer's stream has of each payment (by payment_id), as it was read with the facts. */
  lastEvents: Map<string, Payment>;
  /**
   * Whether the change may have lowered what the order holds: the link was paid or held money before, and a status
   * or a held figure changed. Rare (not every confirmation, not an unpaid link's), so its sinks may read more.
   */
  mayHoldLess: boolean;
}

/** Where a reconciliation's change goes, in its transaction. */
export interface ChangeSink {
  apply(tx: Sql, change: LinkChange): Promise<void>;
}

export class Reconciler {
  constructor(
    private readonly clock: Clock,
    private readonly reader: LinkReader,
    private readonly sinks: readonly ChangeSink[],
  ) {}

  /**
   * Locks the link and its payments (in that order), derives their statuses, writes what changed and hands the change
   * to the sinks. Call it in a transaction; the snapshot it returns is what was written.
   */
  async reconcile(tx: Sql, ref: string): Promise<LinkSnapshot> {
    const link = await readLink(tx, ref, true);
    if (!link) throw notFound(NO_LINK);
    const { payments: locked, transfers, lastEvents } = await lockPaymentsOfLink(tx, ref, this.clock.now());
    const before = this.reader.derive({ link, payments: locked, transfers });
    const { derived } = before;
    const payments = before.payments.map((row, i) => ({ ...row, ...storedForm(before.states[i]!) }));
    const after: LinkSnapshot = { ...before, link: { ...link, status: derived.status, paid_at: derived.paid_at }, payments };
    const changes: LinkChange['changes'] = [];
    let moved = false;
    for (const [i, row] of before.payments.entries()) {
      const next = payments[i]!;
      if (!sameStored(row, next)) {
        moved = true;
        await writeDerivedPayment(tx, row.payment_id, next);
      }
      if (next.status !== row.status && next.status !== 'awaiting_payment') changes.push({ type: `payment.${next.status}`, paymentId: row.payment_id });
    }
    if (link.status !== derived.status || link.paid_at?.getTime() !== derived.paid_at?.getTime()) {
      moved = true;
      await writeDerivedLink(tx, ref, after.link);
      if (derived.status === 'expired' && link.status === 'active') changes.push({ type: 'payment_link.expired' });
      // Once: a link leaves `cancelled` only for `paid` (a held payment the merchant accepts), never back.
      if (derived.status === 'cancelled' && link.status === 'active') changes.push({ type: 'payment_link.cancelled' });
    }
    const heldBefore = link.status === 'paid' || before.payments.some((row) => row.held_vnd > 0);
    for (const sink of this.sinks) await sink.apply(tx, { after, changes, lastEvents, mayHoldLess: moved && heldBefore });
    return after;
  }
}

function storedForm(state: PaymentState): DerivedPayment {
  return { status: state.status, overpaid: state.overpaid, paid_at: state.paid_at, held_vnd: Number(state.held_vnd), unsettled: state.unsettled };
}

function sameStored(a: DerivedPayment, b: DerivedPayment): boolean {
  return a.status === b.status && a.overpaid === b.overpaid && a.paid_at?.getTime() === b.paid_at?.getTime() && a.held_vnd === b.held_vnd && a.unsettled === b.unsettled;
}
