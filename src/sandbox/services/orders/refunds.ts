// Refunds (docs/api.md, "Create a refund"; docs/payment-lifecycle.md, "Refunds"): any VND the order holds, paid or
// held, can go back, never more than it holds, also under concurrent requests (the order's links are locked). A
// request without payment_id returns the paid payment's money first, then held payments', oldest first; a request
// larger than one payment holds becomes one refund per payment. A refund is PENDING until its payout is confirmed:
// first it waits for the customer to claim it with an address (its claim link, which runs out), unless the merchant
// sends it to the address that paid. The merchant may cancel it while nothing was sent, and make a failed one again.
import { formatAtomic, leastRefundVnd, refundAtomic } from '../../../codecs/amounts.js';
import type { CancelRefundRequest, CreateRefundRequest, RefundList, RefundResource, RefundResourceList } from '../../../contract/index.js';
import type { Networks } from '../../chains/networks.js';
import type { Clock } from '../../clock.js';
import { conflict, invalid, notFound } from '../../errors.js';
import { randomToken } from '../../secrets.js';
import type { Database, Sql } from '../../storage/database.js';
import {
  atomicRefunded,
  historiesOf,
  insertRefund,
  refundById,
  refundsOfOrder,
  type RefundState,
} from '../../storage/refunds.js';
import type { Idempotency, IdempotencyScope } from '../merchant/idempotency.js';
import type { MerchantEventSink } from '../webhooks/merchant-events.js';
import type { Orders } from './orders.js';
import type { Payouts } from './payouts.js';
import { orderNotFound, refundable, refundSources, type RefundLedger, type RefundSource } from './refund-ledger.js';

/** A refund's terms, as it is made (or made again). */
interface Terms {
  source: RefundSource;
  amount: number;
  request: Omit<CreateRefundRequest, 'amount' | 'payment_id'>;
  /** The address it goes to, when known: the payer's. */
  destination: string | null;
  retryOf: string | null;
}

export class Refunds {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly networks: Networks,
    private readonly orders: Orders,
    private readonly ledger: RefundLedger,
    private readonly payouts: Payouts,
    private readonly events: MerchantEventSink,
    private readonly idempotency: Idempotency,
    /** How long a claim link stays open. */
    private readonly claimTtlSeconds: number,
  ) {}

  /**
   * The refunds asked for, and the order's refund list through them (RefundLedger.listedThrough), read after the
   * commit: a replay reads the same list, each refund as it is now. A key keeps the ids it made, not the list, which
   * grows with the order.
   */
  async create(
    merchantId: string,
    orderId: string,
    request: CreateRefundRequest,
    idempotency: Omit<IdempotencyScope, 'merchantId'>,
  ): Promise<{ value: RefundList; replayed: boolean }> {
    const { value, replayed } = await this.idempotency.run({ ...idempotency, merchantId }, async (tx) => {
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
      const refundIds: string[] = [];
      for (const source of chosen) {
        const part = Math.min(due, refundable(source));
        if (part === 0) continue;
        due -= part;
        const destination = request.send_to === 'payer' ? source.payer : null;
        refundIds.push(await this.#make(tx, merchantId, { source, amount: part, request, destination, retryOf: null }));
        if (due === 0) break;
      }
      return { refund_ids: refundIds };
    });
    return { value: await this.ledger.listedThrough(merchantId, orderId, value.refund_ids), replayed };
  }

  /** An order's refunds as the merchant sees them (claims that ran out end first). */
  async list(merchantId: string, orderId: string): Promise<RefundResourceList> {
    await this.payouts.endLapsedClaims({ merchantId, orderId });
    const { amountToRefund } = JSON.parse(await this.ledger.list(merchantId, orderId)) as RefundList;
    const refunds = await refundsOfOrder(this.db, merchantId, orderId);
    const histories = await historiesOf(this.db, refunds.map((r) => r.refund_id));
    return { amountToRefund, refunds: refunds.map((r) => this.resource(r, histories.get(r.refund_id)!)) };
  }

  async get(merchantId: string, refundId: string): Promise<RefundResource> {
    const found = await this.#own(this.db, merchantId, refundId);
    await this.payouts.endLapsedClaims({ merchantId, orderId: found.merchant_order_id });
    const refund = (await refundById(this.db, refundId))!;
    return this.resource(refund, (await historiesOf(this.db, [refundId])).get(refundId)!);
  }

  /** The merchant takes back a refund nothing of which was sent: FAILED with the reason, its VND refundable again. */
  async cancel(merchantId: string, refundId: string, request: CancelRefundRequest): Promise<RefundResource> {
    await this.db.transaction(async (tx) => {
      const refund = await this.#own(tx, merchantId, refundId, { lock: true });
      if (refund.refund_status !== 'PENDING') throw conflict(`Refund ${refundId} is ${refund.refund_status} already: only a PENDING refund can be cancelled.`);
      if (refund.psp_refund_id) throw conflict(`Refund ${refundId} was sent on chain (${refund.psp_refund_id}): it can no longer be cancelled.`);
      await this.payouts.fail(tx, refund, request.reason ? `cancelled by the merchant: ${request.reason}` : 'cancelled by the merchant');
    });
    return this.get(merchantId, refundId);
  }

  /**
   * A FAILED refund made again, as a new refund of the same payment and amount: with a new claim link (or to the
   * payer again). Refused when the order no longer holds that much of the payment's money.
   */
  async retry(merchantId: string, refundId: string, idempotency: Omit<IdempotencyScope, 'merchantId'>): Promise<{ value: RefundResource; replayed: boolean }> {
    const made = await this.idempotency.run({ ...idempotency, merchantId }, async (tx) => {
      const failed = await this.#own(tx, merchantId, refundId);
      if (failed.refund_status !== 'FAILED') throw conflict(`Refund ${refundId} is ${failed.refund_status}: only a FAILED refund can be made again.`);
      const order = await this.orders.lockOrder(tx, merchantId, failed.merchant_order_id);
      const source = refundSources(order).find((s) => s.payment.payment_id === failed.payment_id);
      const left = source ? refundable(source) : 0;
      if (!source || left < failed.amount) {
        throw conflict(`Order ${failed.merchant_order_id} holds ${left} VND of payment ${failed.payment_id} now, less than the ${failed.amount} VND of refund ${refundId}.`);
      }
      const request = {
        channel: 'PROVIDER',
        description: failed.description,
        refund_type: 'partial',
        refund_reason: failed.refund_reason,
        send_to: failed.send_to,
      } as const;
      // A claimed refund gets a new claim: the address it went to may be why it failed (a contract that takes no plain transfer).
      const destination = failed.send_to === 'payer' ? source.payer : null;
      return { refund_id: await this.#make(tx, merchantId, { source, amount: failed.amount, request, destination, retryOf: refundId }) };
    });
    return { value: await this.get(merchantId, made.value.refund_id), replayed: made.replayed };
  }

  /** A refund as the merchant sees it (contract RefundResource). */
  resource(refund: RefundState, history: RefundResource['history']): RefundResource {
    const { decimals } = this.networks.asset(refund.asset, refund.network);
    return {
      refund_date: refund.refund_date,
      refund_id: refund.refund_id,
      psp_refund_id: refund.psp_refund_id ?? '',
      amount: refund.amount,
      currency: refund.currency.toLowerCase(),
      refund_status: refund.refund_status,
      refund_type: refund.refund_type as RefundResource['refund_type'],
      refund_reason: refund.refund_reason,
      claim_url: this.ledger.claimUrlOf(refund.claim_token),
      merchant_order_id: refund.merchant_order_id,
      payment_link_ref: refund.payment_link_ref,
      payment_id: refund.payment_id,
      asset: refund.asset,
      network: refund.network,
      amount_crypto: formatAtomic(BigInt(refund.amount_atomic), decimals),
      payment_received_crypto: formatAtomic(BigInt(refund.basis_atomic), decimals),
      payment_value_vnd: refund.basis_vnd,
      send_to: refund.send_to,
      destination: refund.destination,
      claim_expires_at: refund.claim_expires_at?.toISOString() ?? null,
      description: refund.description,
      failure_reason: refund.failure_reason,
      retry_of: refund.retry_of,
      payout_waiting:
        refund.refund_status === 'PENDING' && refund.payout_waiting
          ? { reason: refund.payout_waiting, detail: refund.payout_waiting_detail ?? '', until: refund.payout_waiting_until?.toISOString() ?? null }
          : null,
      history,
    };
  }

  /** Records one refund of one payment's money, PENDING; sends it at once when its destination is known. Its id. */
  async #make(tx: Sql, merchantId: string, { source, amount, request, destination, retryOf }: Terms): Promise<string> {
    this.payouts.checkPayable(source.payment.network, amount);
    const coins = await coinsOf(tx, source, amount);
    const now = this.clock.now();
    const claim = destination === null;
    const refundId = randomToken('rf', 12);
    await insertRefund(tx, {
      refund_id: refundId,
      payment_link_ref: source.link.payment_link_ref,
      payment_id: source.payment.payment_id,
      amount,
      currency: source.link.currency,
      channel: request.channel,
      refund_status: 'PENDING',
      refund_type: request.refund_type,
      refund_reason: request.refund_reason,
      description: request.description,
      psp_refund_id: null,
      amount_atomic: coins.atomic,
      basis_atomic: coins.basisAtomic,
      basis_vnd: coins.basisVnd,
      send_to: request.send_to ?? 'claim',
      claim_token: claim ? randomToken('rc', 24) : null,
      claim_expires_at: claim ? new Date(now.getTime() + this.claimTtlSeconds * 1000) : null,
      destination,
      retry_of: retryOf,
      created_at: now,
    });
    await this.events.emit(tx, { merchantId, type: 'refund.pending', ref: source.link.payment_link_ref, refundId });
    if (destination !== null) await this.payouts.send(tx, { ...(await refundById(tx, refundId))!, destination });
    return refundId;
  }

  async #own(sql: Sql, merchantId: string, refundId: string, options?: { lock: boolean }): Promise<RefundState> {
    const refund = await refundById(sql, refundId, options);
    if (refund?.merchant_id !== merchantId) throw notFound(`There is no refund ${refundId} for this merchant.`);
    return refund;
  }
}

/**
 * The coins a refund of `amount` VND returns (docs/payment-lifecycle.md, "Which coins a refund returns"): its
 * payment's confirmed coins in the share its VND, with the payment's refunds before it, is of what they are worth to
 * the order, less what those refunds send; never more than is left of the coins. Shares are cumulative, so rounding
 * down never strands dust: the refund that completes the payment's worth sends exactly what is left.
 */
async function coinsOf(tx: Sql, { payment, state, refunded }: RefundSource, amount: number): Promise<{ atomic: bigint; basisAtomic: bigint; basisVnd: bigint }> {
  const { confirmed, value_vnd: value } = state;
  const sent = await atomicRefunded(tx, payment.payment_id);
  const share = refundAtomic(confirmed, value, BigInt(refunded), BigInt(amount), sent);
  const atomic = share < confirmed - sent ? share : confirmed - sent;
  if (atomic <= 0n) {
    const least = leastRefundVnd(confirmed, value, BigInt(refunded), sent);
    throw invalid(`${amount} VND is less than the smallest amount of ${payment.asset} the chain can send back.`, [
      { path: 'amount', message: `must be at least ${least} VND for this order: less is not one unit of ${payment.asset}` },
    ]);
  }
  return { atomic, basisAtomic: confirmed, basisVnd: value };
}
