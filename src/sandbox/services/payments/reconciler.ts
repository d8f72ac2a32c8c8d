// Reconciliation: a link's statuses re-derived from its facts (payment-state.ts) and written back, with a webhook for
// every status change and a stream event for every change the customer can see. The one place a status changes.
import type { WebhookEventType } from '../../../contract/index.js';
import { quoteStep } from '../../../codecs/amounts.js';
import type { Networks } from '../../chains/networks.js';
import type { Clock } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { Sql } from '../../storage/database.js';
import { lockPaymentsOfLink, parseLinkFacts, readLinkFactsText, type LinkFacts, type TransferRecord, type TransferRow } from '../../storage/link-facts.js';
import {
  readLink,
  writeDerivedLink,
  writeDerivedPayment,
  type DerivedPayment,
  type LinkRecord,
  type LinkRow,
  type PaymentRow,
} from '../../storage/payments.js';
import type { PaymentEvents } from '../customer/payment-events.js';
import { linkState, type LinkState, type PaymentState } from './payment-state.js';
import type { PaymentView } from './payment-view.js';
import type { MerchantEventSink } from '../webhooks/outbox.js';

const NO_LINK = 'There is no payment link with this reference.';

/**
 * A link as its facts make it: its row (or record) and payments (statuses as stored), their transfers and what they
 * derive to.
 */
export interface LinkSnapshot<Link extends LinkRecord = LinkRow, Transfer extends TransferRecord = TransferRow> {
  link: Link;
  payments: PaymentRow[];
  /** In the order of `payments`. */
  states: PaymentState[];
  transfers: Map<string, Transfer[]>;
  derived: LinkState;
  /** The networks the gateway sees now, where the facts were read with them (storage/link-facts.ts). */
  available?: string[];
}

export class Reconciler {
  constructor(
    private readonly clock: Clock,
    private readonly networks: Networks,
    private readonly toleranceBps: number,
    private readonly view: PaymentView,
    private readonly events: PaymentEvents,
    private readonly merchantEvents: MerchantEventSink,
  ) {}

  /** The link as it is stored, with what its facts derive to now; no lock, no write. */
  async read(sql: Sql, ref: string): Promise<LinkSnapshot> {
    return this.derive(parseLinkFacts(await this.readFacts(sql, ref)));
  }

  /**
   * The link's facts as stored, as JSON text (storage/link-facts.ts, parseLinkFacts); without `request`, its record in
   * place of its row (parseLinkRecordFacts). No lock.
   */
  async readFacts(sql: Sql, ref: string, options?: { request: boolean }): Promise<string> {
    const facts = await readLinkFactsText(sql, ref, this.clock.now(), options);
    if (facts === undefined) throw notFound(NO_LINK);
    return facts;
  }

  /**
   * Locks the link and its payments (in that order), derives their statuses and writes what changed. Call it in a
   * transaction; the snapshot it returns is what was written.
   */
  async reconcile(tx: Sql, ref: string): Promise<LinkSnapshot> {
    const link = await readLink(tx, ref, true);
    if (!link) throw notFound(NO_LINK);
    const { payments: locked, transfers, lastEvents } = await lockPaymentsOfLink(tx, ref, this.clock.now());
    const before = this.derive({ link, payments: locked, transfers });
    const { derived } = before;
    const payments = before.payments.map((row, i) => ({ ...row, ...storedForm(before.states[i]!) }));
    const after: LinkSnapshot = {
      ...before,
      link: { ...link, status: derived.status, paid_at: derived.paid_at },
      payments,
    };
    const linkChanged = link.status !== derived.status || link.paid_at?.getTime() !== derived.paid_at?.getTime();
    const emits: { type: WebhookEventType; paymentId?: string }[] = [];
    for (const [i, row] of before.payments.entries()) {
      const next = payments[i]!;
      if (!sameStored(row, next)) await writeDerivedPayment(tx, row.payment_id, next);
      if (next.status !== row.status && next.status !== 'awaiting_payment') emits.push({ type: `payment.${next.status}`, paymentId: row.payment_id });
    }
    if (linkChanged) {
      await writeDerivedLink(tx, ref, after.link);
      if (derived.status === 'expired' && link.status === 'active') emits.push({ type: 'payment_link.expired' });
    }
    for (const [i, row] of payments.entries()) {
      const payment = await this.view.render(tx, after.link, row, after.states[i]!, after.transfers.get(row.payment_id) ?? []);
      await this.events.recordIfChanged(tx, ref, payment, lastEvents.get(row.payment_id));
    }
    for (const emit of emits) await this.merchantEvents.emit(tx, { merchantId: link.merchant_id, ref, ...emit });
    return after;
  }

  /** Whether time alone has moved the link on since it was last reconciled (a link or quote ran out). */
  static timeHasPassed(snapshot: LinkSnapshot): boolean {
    const { link, payments, states, derived } = snapshot;
    if (link.status === 'active' && derived.status === 'expired') return true;
    return payments.some((row, i) => (row.status === 'awaiting_payment' || row.status === 'underpaid') && states[i]!.status === 'expired');
  }

  /** The link as its facts derive it now; no lock, no write. */
  derive<Link extends LinkRecord, Transfer extends TransferRecord>({ link, payments, transfers: seen, available }: LinkFacts<Link, Transfer>): LinkSnapshot<Link, Transfer> {
    const transfers = new Map<string, Transfer[]>(payments.map((p) => [p.payment_id, []]));
    for (const t of seen) transfers.get(t.payment_id)?.push(t);
    const derived = linkState(
      {
        expires_at: link.expires_at,
        superseded_at: link.superseded_at,
        known_until: earliest(payments.map((p) => p.known_until)),
        payments: payments.map((p) => {
          const { decimals, quote_decimals } = this.networks.asset(p.asset, p.network);
          return {
            payment_id: p.payment_id,
            amount_atomic: BigInt(p.amount_atomic),
            quote_step: quoteStep(decimals, quote_decimals),
            amount_vnd: p.amount_vnd,
            rate: p.rate,
            decimals,
            quote_expires_at: p.quote_expires_at,
            created_at: p.created_at,
            accepted_at: p.accepted_at,
            transfers: transfers.get(p.payment_id)!.map((t) => ({ amount: BigInt(t.amount_atomic), seen_at: t.seen_at, confirmed_at: t.confirmed_at })),
          };
        }),
      },
      this.clock.now(),
      this.toleranceBps,
    );
    return { link, payments, states: derived.payments, transfers, derived, available };
  }
}

function storedForm(state: PaymentState): DerivedPayment {
  return { status: state.status, overpaid: state.overpaid, paid_at: state.paid_at, held_vnd: Number(state.held_vnd), unsettled: state.unsettled };
}

function sameStored(a: DerivedPayment, b: DerivedPayment): boolean {
  return a.status === b.status && a.overpaid === b.overpaid && a.paid_at?.getTime() === b.paid_at?.getTime() && a.held_vnd === b.held_vnd && a.unsettled === b.unsettled;
}

function earliest(dates: readonly (Date | null)[]): Date | null {
  return dates.reduce<Date | null>((first, date) => (date && (!first || date < first) ? date : first), null);
}
