// The webhook outbox: what a merchant must hear of is written in the same transaction as the change that causes it,
// with one delivery per endpoint, so nothing is lost when a gateway process dies. dispatcher.ts sends them. A
// reconciliation's status changes reach it as a sink (payments/reconciler.ts); refunds and chain facts emit their own.
import { formatAtomic } from '../../../codecs/amounts.js';
import type { EventTransfer, WebhookEvent } from '../../../contract/index.js';
import type { Networks } from '../../chains/networks.js';
import type { Clock } from '../../clock.js';
import { randomToken } from '../../secrets.js';
import { transferFactsOf, type TransferFact } from '../../storage/chain-facts.js';
import type { Sql } from '../../storage/database.js';
import { nextEventSequence } from '../../storage/merchant-events.js';
import { enqueueEvent } from '../../storage/webhook-deliveries.js';
import { liveEndpointIds } from '../../storage/webhook-endpoints.js';
import type { MerchantLinks } from '../merchant/merchant-links.js';
import type { LinkSnapshot } from '../payments/link-reader.js';
import type { MerchantEvent, MerchantEventSink } from './merchant-events.js';
import type { ChangeSink, LinkChange } from '../payments/reconciler.js';

export class WebhookOutbox implements MerchantEventSink, ChangeSink {
  constructor(
    private readonly clock: Clock,
    private readonly merchantLinks: MerchantLinks,
    private readonly networks: Networks,
  ) {}

  /** A reconciliation's status changes, each an event whose body shows the link as it was just written. */
  async apply(tx: Sql, { after, changes }: LinkChange): Promise<void> {
    for (const { type, paymentId } of changes) await this.emit(tx, { merchantId: after.link.merchant_id, type, ref: after.link.payment_link_ref, paymentId }, after);
  }

  /**
   * The one way an event is written: kept for the events API (GET /api/events) with the merchant's next `sequence`,
   * and delivered to each live endpoint. `snapshot`: the link as the change left it, when the caller holds it; read in
   * the transaction otherwise. The sequence is taken last, so the counter's row lock is held only until the commit.
   */
  async emit(tx: Sql, event: MerchantEvent, snapshot?: LinkSnapshot): Promise<void> {
    const endpoints = await liveEndpointIds(tx, event.merchantId);
    const now = this.clock.now();
    const paymentLink = snapshot ? await this.merchantLinks.resourceOf(tx, snapshot) : await this.merchantLinks.get(event.merchantId, event.ref, tx);
    const transfers = event.paymentId === undefined ? undefined : (event.transfers ?? (await transferFactsOf(tx, [event.paymentId])).get(event.paymentId)!);
    const sequence = await nextEventSequence(tx, event.merchantId);
    const body: WebhookEvent = {
      id: randomToken('evt', 16),
      sequence,
      type: event.type,
      created_at: now.toISOString(),
      payment_id: event.paymentId ?? null,
      refund_id: event.refundId ?? null,
      data: { payment_link: paymentLink, ...(transfers && { transfers: transfers.map((t) => this.#named(t)) }) },
    };
    await enqueueEvent(
      tx,
      { event_id: body.id, merchant_id: event.merchantId, type: event.type, payment_link_ref: event.ref, body: JSON.stringify(body), created_at: now, sequence },
      endpoints,
    );
  }

  /** A transfer as the contract names it (EventTransfer): positions are `log:N` for a token's Transfer log (storage/chain-facts.ts). */
  #named(t: TransferFact): EventTransfer {
    const asset = this.networks.asset(t.asset, t.network);
    const log = /^log:(\d+)$/.exec(t.position);
    return {
      network: t.network,
      asset: t.asset,
      tx_hash: t.tx_hash,
      log_index: log ? Number(log[1]) : null,
      block_height: t.block_height,
      block_hash: t.block_hash,
      token_contract: asset.token_contract ?? null,
      amount_crypto: formatAtomic(BigInt(t.amount_atomic), asset.decimals),
      confirmations: t.confirmations,
    };
  }
}
