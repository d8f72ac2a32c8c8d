// A link as its facts make it, read without a lock and without a write: its row, its payments with their transfers,
// and the statuses the pure state function derives from them now (payment-state.ts). Every read of a link goes
// through here; the reconciler writes what it derives.
import { quoteStep } from '../../../codecs/amounts.js';
import { isIn, QUOTE_OPEN_STATUSES } from '../../../contract/index.js';
import type { Networks } from '../../chains/networks.js';
import type { Clock } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { Sql } from '../../storage/database.js';
import { parseLinkFacts, readLinkFactsText, type LinkRows, type TransferRow } from '../../storage/link-facts.js';
import type { LinkRecord, LinkRow, PaymentRow } from '../../storage/payments.js';
import { linkState, type LinkState, type PaymentState } from './payment-state.js';

export const NO_LINK = 'There is no payment link with this reference.';

/**
 * A link as its facts make it: its row (or record) and payments (statuses as stored), their transfers and what they
 * derive to.
 */
export interface LinkSnapshot<Link extends LinkRecord = LinkRow> {
  link: Link;
  payments: PaymentRow[];
  /** In the order of `payments`. */
  states: PaymentState[];
  transfers: Map<string, TransferRow[]>;
  derived: LinkState;
  /** The networks the gateway sees now, where the facts were read with them (storage/link-facts.ts). */
  available?: string[];
}

export class LinkReader {
  constructor(
    private readonly clock: Clock,
    private readonly networks: Networks,
    private readonly toleranceBps: number,
  ) {}

  /** The link as it is stored, with what its facts derive to now. */
  async read(sql: Sql, ref: string): Promise<LinkSnapshot> {
    return this.derive(parseLinkFacts(await this.readFacts(sql, ref)));
  }

  /**
   * The link's facts as stored, as JSON text (storage/link-facts.ts, parseLinkFacts); without `request`, its record in
   * place of its row (parseLinkRecordFacts).
   */
  async readFacts(sql: Sql, ref: string, options?: { request: boolean }): Promise<string> {
    const facts = await readLinkFactsText(sql, ref, this.clock.now(), options);
    if (facts === undefined) throw notFound(NO_LINK);
    return facts;
  }

  /** The link as its facts derive it now. */
  derive<Link extends LinkRecord>({ link, payments, transfers: seen, available }: LinkRows<Link>): LinkSnapshot<Link> {
    const transfers = new Map<string, TransferRow[]>(payments.map((p) => [p.payment_id, []]));
    for (const t of seen) transfers.get(t.payment_id)?.push(t);
    const derived = linkState(
      {
        amount_vnd: link.amount,
        expires_at: link.expires_at,
        superseded_at: link.superseded_at,
        cancelled_at: link.cancelled_at,
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

  /** Whether time alone has moved the link on since it was last reconciled (a link or quote ran out). */
  static timeHasPassed(snapshot: LinkSnapshot<LinkRecord>): boolean {
    const { link, payments, states, derived } = snapshot;
    if (link.status === 'active' && derived.status === 'expired') return true;
    return payments.some((row, i) => isIn(QUOTE_OPEN_STATUSES, row.status) && states[i]!.status === 'expired');
  }
}

function earliest(dates: readonly (Date | null)[]): Date | null {
  return dates.reduce<Date | null>((first, date) => (date && (!first || date < first) ? date : first), null);
}
