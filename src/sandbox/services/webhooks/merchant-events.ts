// The port through which services announce what a merchant must hear of (refunds, payouts, chain facts); the webhook
// outbox (./outbox.ts) is what stands behind it.
import type { WebhookEventType } from '../../../contract/index.js';
import type { TransferFact } from '../../storage/chain-facts.js';
import type { Sql } from '../../storage/database.js';

export interface MerchantEvent {
  merchantId: string;
  type: WebhookEventType;
  ref: string;
  paymentId?: string;
  refundId?: string;
  /** The payment's transfers as the event names them, when they are not as stored now (before a reorganisation). */
  transfers?: TransferFact[];
}

/** Where services announce what a merchant must hear of. */
export interface MerchantEventSink {
  emit(tx: Sql, event: MerchantEvent): Promise<void>;
}
