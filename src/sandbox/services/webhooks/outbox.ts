// The webhook outbox: what a merchant must hear of is written in the same transaction as the change that causes it,
// with one delivery per endpoint, so nothing is lost when a gateway process dies. webhook-dispatcher.ts sends them.
import type { PaymentLinkResource, WebhookEvent, WebhookEventType } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { randomToken } from '../../secrets.js';
import type { Sql } from '../../storage/database.js';
import { enqueueEvent, liveEndpointIds } from '../../storage/webhooks.js';

export interface MerchantEvent {
  merchantId: string;
  type: WebhookEventType;
  ref: string;
  paymentId?: string;
  refundId?: string;
}

/** Where services announce what a merchant must hear of. */
export interface MerchantEventSink {
  emit(tx: Sql, event: MerchantEvent): Promise<void>;
}

export class WebhookOutbox implements MerchantEventSink {
  constructor(
    private readonly clock: Clock,
    /** The link as the read API shows it (link-resources.ts, built after this service). */
    private readonly resource: (sql: Sql, merchantId: string, ref: string) => Promise<PaymentLinkResource>,
  ) {}

  async emit(tx: Sql, event: MerchantEvent): Promise<void> {
    const endpoints = await liveEndpointIds(tx, event.merchantId);
    if (!endpoints.length) return;
    const now = this.clock.now();
    const body: WebhookEvent = {
      id: randomToken('evt', 16),
      type: event.type,
      created_at: now.toISOString(),
      payment_id: event.paymentId ?? null,
      refund_id: event.refundId ?? null,
      data: { payment_link: await this.resource(tx, event.merchantId, event.ref) },
    };
    await enqueueEvent(
      tx,
      { event_id: body.id, merchant_id: event.merchantId, type: event.type, payment_link_ref: event.ref, body: JSON.stringify(body), created_at: now },
      endpoints,
    );
  }
}
