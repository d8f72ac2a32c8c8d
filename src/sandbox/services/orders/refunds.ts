// Refunds (docs/api.md, "Create a refund"): any VND the order holds, paid or held, can go back, never more than it holds, also under
// concurrent requests (the order's links are locked). A request without payment_id returns the paid payment's money
// first, then held payments', oldest first; a request larger than one payment holds becomes one refund per payment.
import type { CreateRefundRequest, LinkRefund, RefundList, RefundStatus } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { conflict, invalid, notFound } from '../../errors.js';
import { randomToken } from '../../secrets.js';
import type { Database, Sql } from '../../storage/database.js';
import type { TransferRecord } from '../../storage/link-facts.js';
import type { LinkRecord, PaymentRow } from '../../storage/payments.js';
import { insertRefund, parseOrderRefunds, readOrderRefundsText, refundsOfLinks } from '../../storage/refunds.js';
import { DerivedAnswers } from '../payments/derived-answers.js';
import type { Orders, OrderSnapshot } from './orders.js';
import { idempotent, type IdempotencyScope } from '../merchant/idempotency.js';
import type { PaymentState } from '../payments/payment-state.js';
import type { LinkSnapshot, Reconciler } from '../payments/reconciler.js';
import type { MerchantEventSink } from '../webhooks/outbox.js';

/** One payment's money, as a refund sees it. */
export interface RefundSource {
  link: LinkRecord;
  payment: PaymentRow;
  state: PaymentState;
  /** VND of it already returned (refunds that did not fail). */
  refunded: number;
  /** Where its money came from: the refund goes back there. */
  payer: string;
}

/** How a refund's money moves; the outcome is stored with the refund in the same transaction. */
export interface RefundSender {
  send(
    tx: Sql,
    source: RefundSource,
    amount: number,
    request: CreateRefundRequest,
  ): Promise<{ refund_status: RefundStatus; psp_refund_id: string | null; amount_atomic: bigint | null }>;
}

/** How many orders' listings a process keeps (services/derived-answers.ts). */
const LISTS_KEPT = 1_000;

export class Refunds {
  readonly #lists = new DerivedAnswers<string>(LISTS_KEPT);

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reconciler: Reconciler,
    private readonly orders: Orders,
    private readonly sender: RefundSender,
    private readonly events: MerchantEventSink,
  ) {}

  /**
   * The order's refunds as JSON, read in one statement. A listing made before is served again while the order's facts
   * and the time window they hold in are the same (services/derived-answers.ts).
   */
  async list(merchantId: string, orderId: string): Promise<string> {
    const facts = await readOrderRefundsText(this.db, merchantId, orderId, this.clock.now());
    const key = `${merchantId} ${orderId}`;
    const kept = this.#lists.get(key, facts, this.clock.now().getTime());
    if (kept !== undefined) return kept;
    const order = parseOrderRefunds(facts);
    if (!order.links.length) throw orderNotFound(orderId);
    const links = order.links.map((link) => this.reconciler.derive(link));
    const json = JSON.stringify(listed(links, order.refunds));
    this.#lists.set(key, facts, json, { from: this.clock.now().getTime(), until: Math.min(...links.map((l) => l.derived.stable_until)) });
    return json;
  }

  async create(
    merchantId: string,
    orderId: string,
    request: CreateRefundRequest,
    idempotency: Omit<IdempotencyScope, 'merchantId'>,
  ): Promise<{ value: RefundList; replayed: boolean }> {
    return idempotent(this.db, { ...idempotency, merchantId }, async (tx) => {
      const order = await this.orders.lockOrder(tx, merchantId, orderId);
      if (!order.links.length) throw orderNotFound(orderId);
      const sources = refundSources(order);
      const left = sources.reduce((sum, s) => sum + refundable(s), 0);
      if (!sources.length) {
        throw conflict(`Order ${orderId} holds no money yet: only a paid order, or one holding a payment, can be refunded.`);
      }
      if (left === 0) throw invalid(`Order ${orderId} is already fully refunded.`, [{ path: 'amount', message: 'nothing is left to refund' }]);
      const chosen = request.payment_id === undefined ? sources : sources.filter((s) => s.payment.payment_id === request.payment_id);
      if (request.payment_id !== undefined && !chosen.length) {
        throw invalid(`Order ${orderId} holds no money through payment ${request.payment_id}.`, [
          { path: 'payment_id', message: 'must be a payment of this order that holds money' },
        ]);
      }
      const available = chosen.reduce((sum, s) => sum + refundable(s), 0);
      if (request.refund_type === 'full' && request.amount !== available) {
        throw invalid(`A full refund returns exactly what is left: ${available} VND.`, [
          { path: 'amount', message: `must be ${available} VND (what is left) for a full refund` },
        ]);
      }
      if (request.amount > available) {
        throw invalid(`amount ${request.amount} VND is more than the ${available} VND left to refund on order ${orderId}.`, [
          { path: 'amount', message: `must be at most ${available} VND, what is left to refund` },
        ]);
      }
      let due = request.amount;
      for (const source of chosen) {
        const part = Math.min(due, refundable(source));
        if (part === 0) continue;
        due -= part;
        const outcome = await this.sender.send(tx, source, part, request);
        const refundId = randomToken('rf', 12);
        await insertRefund(tx, {
          refund_id: refundId,
          payment_link_ref: source.link.payment_link_ref,
          payment_id: source.payment.payment_id,
          amount: part,
          currency: source.link.currency,
          channel: request.channel,
          refund_status: outcome.refund_status,
          refund_type: request.refund_type,
          refund_reason: request.refund_reason,
          description: request.description,
          psp_refund_id: outcome.psp_refund_id,
          amount_atomic: outcome.amount_atomic,
          created_at: this.clock.now(),
        });
        if (outcome.refund_status !== 'PENDING') {
          const type = outcome.refund_status === 'SUCCESS' ? 'refund.succeeded' : 'refund.failed';
          await this.events.emit(tx, { merchantId, type, ref: source.link.payment_link_ref, refundId });
        }
        // A refund that failed moved nothing: the rest of the request does not go on to other payments.
        if (outcome.refund_status === 'FAILED' || due === 0) break;
      }
      return listed(order.links, await refundsOfLinks(tx, order.links.map((l) => l.link.payment_link_ref)));
    });
  }

  /** What one link holds and has returned (the read API's `amountToRefund` for that link), each refund with its payment. */
  async linkRefunds(sql: Sql, snapshot: LinkSnapshot): Promise<{ amountToRefund: number; refundDetails: LinkRefund[] }> {
    return withRefunds([snapshot], await refundsOfLinks(sql, [snapshot.link.payment_link_ref]));
  }
}

/** Links with their refunds, and what is left to refund: every VND they hold, once. */
function withRefunds(links: LinkSnapshot<LinkRecord, TransferRecord>[], refundDetails: LinkRefund[]): { amountToRefund: number; refundDetails: LinkRefund[] } {
  const refunded = new Map<string, number>();
  for (const { payment_id, amount, refund_status } of refundDetails) {
    if (payment_id && refund_status !== 'FAILED') refunded.set(payment_id, (refunded.get(payment_id) ?? 0) + amount);
  }
  return { amountToRefund: refundSources({ links, refunded }).reduce((sum, s) => sum + refundable(s), 0), refundDetails };
}

/** Every refund of the order's links (docs/api.md, "Get the refunds of an order"), and what is left to refund. */
function listed(links: LinkSnapshot<LinkRecord, TransferRecord>[], refunds: LinkRefund[]): RefundList {
  const { amountToRefund, refundDetails } = withRefunds(links, refunds);
  return { amountToRefund, refundDetails: refundDetails.map(({ payment_id: _payment, ...record }) => record) };
}

/** The payments holding money, the one that paid its link first, then the others oldest first. */
function refundSources(order: OrderSnapshot): RefundSource[] {
  const sources = order.links.flatMap((l) =>
    l.payments.map((payment, i) => ({
      link: l.link,
      payment,
      state: l.states[i]!,
      refunded: order.refunded.get(payment.payment_id) ?? 0,
      payer: l.transfers.get(payment.payment_id)?.find((t) => t.confirmed_at)?.from_address ?? '',
    })),
  );
  const paidFirst = (s: RefundSource) => (s.payment.status === 'paid' ? 0 : 1);
  return sources
    .filter((s) => s.state.value_vnd > 0n)
    .sort((a, b) => paidFirst(a) - paidFirst(b) || a.payment.created_at.getTime() - b.payment.created_at.getTime());
}

const refundable = (source: RefundSource): number => Number(source.state.value_vnd) - source.refunded;

const orderNotFound = (orderId: string) => notFound(`There is no order ${orderId} for this merchant.`);
