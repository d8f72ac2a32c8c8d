// Webhooks (issue "merchant-side truth"): events are written in the same transaction as the change that causes
// them (a transactional outbox), one delivery per endpoint; a worker sends due deliveries with exponential
// backoff for three days of sandbox time. At least once, with a stable event id; in order per link; several
// gateway processes share the work through row locks (SKIP LOCKED) and leases, so none sends a delivery
// another is sending. Each delivery is sent on its own, and a merchant has only a few in flight at once, so a
// receiver that hangs until the timeout holds back its own merchant's deliveries, never another's.
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type PaymentLinkResource, type WebhookDelivery, type WebhookEndpoint, type WebhookEvent, type WebhookEventType } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { invalid, notFound } from '../errors.js';
import { randomToken, type Sealer } from '../secrets.js';
import { one, type Database, type Sql } from '../storage/database.js';
import type { WebhookTargets } from './webhook-targets.js';
import { pinnedLookup, RefusedTarget } from './webhook-targets.js';

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

export const SIGNATURE_HEADER = 'Pay-Checkout-Signature';

/** Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export function webhookSignature(body: string, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}

/** Retries: 10 s, 20 s, 40 s … doubling up to an hour apart, for three days after the event. */
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 3_600_000;
const GIVE_UP_AFTER_MS = 3 * 24 * 3_600_000;
/** How long a claimed delivery is another process's to leave alone. */
const LEASE_MS = 30_000;
/** Deliveries one process sends at once. */
const MAX_IN_FLIGHT = 32;
/** Deliveries of one merchant in flight at once (leased, across processes): all a slow merchant can hold. */
const PER_MERCHANT = 4;
/** NOTIFY channel: a delivery was queued, so every gateway process on the database wakes its worker. */
const QUEUED = 'pay_checkout_webhooks';

export const retryDelay = (attempts: number): number => Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), MAX_RETRY_MS);

interface DeliveryRow {
  delivery_id: number;
  event_id: string;
  type: WebhookEventType;
  payment_link_ref: string;
  status: WebhookDelivery['status'];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

const DELIVERY_COLUMNS = `d.delivery_id, d.event_id, e.type, e.payment_link_ref, d.status, d.attempts, d.last_status_code, d.last_error, d.next_attempt_at, d.delivered_at, d.created_at`;

interface ClaimedDelivery {
  delivery_id: number;
  attempts: number;
  url: string;
  secret_sealed: string;
  body: string;
  event_id: string;
  event_at: Date;
}

/** What the delivery log says of an attempt that did not deliver: the receiver's status, or that none answered. */
const attemptError = (statusCode: number | undefined) => (statusCode === undefined ? 'unreachable' : `HTTP ${statusCode}`);

export class Webhooks implements MerchantEventSink {
  #timer: NodeJS.Timeout | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  /** Sends under way in this process. */
  readonly #inFlight = new Set<Promise<void>>();
  /** The claim under way (one at a time); a wake-up meanwhile asks it to look once more. */
  #claiming: Promise<void> | undefined;
  #lookAgain = false;
  #stopped = false;
  #attempts = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
    /** The link as the read API shows it; set once the services that build it exist. */
    private readonly resource: (sql: Sql, merchantId: string, ref: string) => Promise<PaymentLinkResource>,
    /** Which URLs may be sent to (public https:, loopback when the sandbox allows it). */
    private readonly targets: WebhookTargets,
    /** A receiver that has not answered by then has failed this attempt. */
    private readonly timeoutMs = 10_000,
  ) {}

  async addEndpoint(merchantId: string, url: string): Promise<WebhookEndpoint> {
    const refuse = (message: string) => invalid(`The webhook endpoint URL ${message}.`, [{ path: 'url', message }]);
    if (!URL.canParse(url)) throw refuse('must be an absolute https: URL');
    // A name that does not resolve yet is taken: it is checked again, like every name, at each delivery.
    await this.targets.addresses(new URL(url)).catch((error: unknown) => {
      if (error instanceof RefusedTarget) throw refuse(error.message);
    });
    const endpoint = { endpoint_id: randomToken('we', 12), url, secret: randomToken('whsec', 24), created_at: this.clock.now() };
    await this.db.query('INSERT INTO webhook_endpoints (endpoint_id, merchant_id, url, secret_sealed, created_at) VALUES ($1, $2, $3, $4, $5)', [
      endpoint.endpoint_id,
      merchantId,
      url,
      this.sealer.seal(endpoint.secret),
      endpoint.created_at,
    ]);
    return { ...endpoint, created_at: endpoint.created_at.toISOString() };
  }

  /** The sandbox merchant's endpoint from configuration, added once. */
  async ensureEndpoint(merchantId: string, url: string): Promise<void> {
    const existing = await one(this.db, 'SELECT 1 FROM webhook_endpoints WHERE merchant_id = $1 AND url = $2 AND deleted_at IS NULL', [merchantId, url]);
    if (!existing) await this.addEndpoint(merchantId, url);
  }

  async endpoints(merchantId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db.query<{ endpoint_id: string; url: string; secret_sealed: string; created_at: Date }>(
      'SELECT endpoint_id, url, secret_sealed, created_at FROM webhook_endpoints WHERE merchant_id = $1 AND deleted_at IS NULL ORDER BY created_at, endpoint_id',
      [merchantId],
    );
    return rows.map((r) => ({ endpoint_id: r.endpoint_id, url: r.url, secret: this.sealer.open(r.secret_sealed), created_at: r.created_at.toISOString() }));
  }

  /** Stops an endpoint: no new events, and what was still waiting for it is marked failed, never sent. */
  async removeEndpoint(merchantId: string, endpointId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rows = await tx.query('UPDATE webhook_endpoints SET deleted_at = $3 WHERE endpoint_id = $1 AND merchant_id = $2 AND deleted_at IS NULL RETURNING 1', [
        endpointId,
        merchantId,
        this.clock.now(),
      ]);
      if (!rows.length) throw notFound('There is no such webhook endpoint.');
      await tx.query(
        `UPDATE webhook_deliveries SET status = 'failed', last_error = 'the endpoint was removed', next_attempt_at = NULL, locked_until = NULL
         WHERE endpoint_id = $1 AND status = 'pending'`,
        [endpointId],
      );
    });
  }

  /** The delivery log of an endpoint, newest first: the latest 200, or those of one payment link. */
  async deliveries(merchantId: string, endpointId: string, paymentLinkRef?: string): Promise<WebhookDelivery[]> {
    await this.ownEndpoint(merchantId, endpointId);
    const rows = await this.db.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e USING (event_id)
       WHERE d.endpoint_id = $1 AND ($2::text IS NULL OR e.payment_link_ref = $2) ORDER BY d.delivery_id DESC LIMIT 200`,
      [endpointId, paymentLinkRef ?? null],
    );
    return rows.map(deliveryView);
  }

  /** Sends a delivery again now, whatever became of it. */
  async redeliver(merchantId: string, deliveryId: number): Promise<WebhookDelivery> {
    const row = await one<DeliveryRow>(
      this.db,
      `UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = $3, locked_until = NULL
       FROM webhook_events e, webhook_endpoints w
       WHERE d.delivery_id = $1 AND e.event_id = d.event_id AND e.merchant_id = $2 AND w.endpoint_id = d.endpoint_id AND w.deleted_at IS NULL
       RETURNING ${DELIVERY_COLUMNS}`,
      [deliveryId, merchantId, this.clock.now()],
    );
    if (!row) throw notFound('There is no such webhook delivery, or its endpoint was removed.');
    return deliveryView(row);
  }

  async emit(tx: Sql, event: MerchantEvent): Promise<void> {
    const endpoints = await tx.query<{ endpoint_id: string }>('SELECT endpoint_id FROM webhook_endpoints WHERE merchant_id = $1 AND deleted_at IS NULL', [
      event.merchantId,
    ]);
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
    await tx.query('INSERT INTO webhook_events (event_id, merchant_id, type, payment_link_ref, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      body.id,
      event.merchantId,
      event.type,
      event.ref,
      JSON.stringify(body),
      now,
    ]);
    for (const { endpoint_id } of endpoints) {
      await tx.query(
        `INSERT INTO webhook_deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, created_at) VALUES ($1, $2, $3, 'pending', $4, $4)`,
        [body.id, endpoint_id, event.ref, now],
      );
    }
    await tx.query('SELECT pg_notify($1, $2)', [QUEUED, '']);
  }

  /** Sends what is due at once when an event is queued (in any process), and every second for the retries. */
  async start(intervalMs = 1000): Promise<void> {
    this.#stopped = false;
    this.#unlisten = await this.db.listen(QUEUED, () => void this.#fill());
    this.#timer = setInterval(() => void this.#fill(), intervalMs);
    this.#timer.unref();
  }

  /** No new claims; the sends under way finish (each within the timeout). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    await unlisten?.();
    await this.#settled();
  }

  /** Sends everything due now, and what falls due as those finish; resolves with how many attempts it made. */
  async deliverDue(): Promise<number> {
    const before = this.#attempts;
    await this.#fill();
    await this.#settled();
    return this.#attempts - before;
  }

  async #settled(): Promise<void> {
    while (this.#claiming || this.#inFlight.size) await Promise.all([this.#claiming, ...this.#inFlight]);
  }

  /** Claims due deliveries into the free slots and starts each on its own; every finished send looks for more. */
  #fill(): Promise<void> {
    this.#lookAgain = true;
    this.#claiming ??= (async () => {
      try {
        while (this.#lookAgain && !this.#stopped) {
          this.#lookAgain = false;
          const free = MAX_IN_FLIGHT - this.#inFlight.size;
          if (free <= 0) break; // the next send to finish looks again
          const claimed = await this.claim(free);
          for (const delivery of claimed) this.#send(delivery);
          if (claimed.length === free) this.#lookAgain = true;
        }
      } catch (error) {
        console.error('webhook delivery failed', error);
      } finally {
        this.#claiming = undefined;
      }
    })();
    return this.#claiming;
  }

  #send(delivery: ClaimedDelivery): void {
    const sending: Promise<void> = this.send(delivery)
      .catch((error: unknown) => console.error('webhook delivery failed', error))
      .finally(() => {
        this.#inFlight.delete(sending);
        void this.#fill();
      });
    this.#inFlight.add(sending);
  }

  /**
   * Takes due deliveries whose earlier siblings (same endpoint, same link) are done, at most PER_MERCHANT of a
   * merchant in flight counting those other processes hold, and leases them to this process.
   */
  private async claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    return this.db.transaction((tx) =>
      tx.query<ClaimedDelivery>(
        `WITH leased AS (
           SELECT w.merchant_id, count(*) AS held FROM webhook_deliveries d JOIN webhook_endpoints w USING (endpoint_id)
           WHERE d.status = 'pending' AND d.locked_until > $1 GROUP BY w.merchant_id),
         ready AS (
           SELECT d.delivery_id, coalesce(l.held, 0) + row_number() OVER (PARTITION BY w.merchant_id ORDER BY d.delivery_id) AS slot
           FROM webhook_deliveries d JOIN webhook_endpoints w USING (endpoint_id) LEFT JOIN leased l USING (merchant_id)
           WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.locked_until IS NULL OR d.locked_until <= $1)
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key
                             AND p.status = 'pending' AND p.delivery_id < d.delivery_id)),
         due AS (
           SELECT d.delivery_id FROM webhook_deliveries d JOIN ready r USING (delivery_id) WHERE r.slot <= $4
           ORDER BY d.delivery_id LIMIT $2 FOR UPDATE OF d SKIP LOCKED)
         UPDATE webhook_deliveries d SET locked_until = $3 FROM due, webhook_endpoints w, webhook_events e
         WHERE d.delivery_id = due.delivery_id AND w.endpoint_id = d.endpoint_id AND e.event_id = d.event_id
         RETURNING d.delivery_id, d.attempts, w.url, w.secret_sealed, e.body, e.event_id, e.created_at AS event_at`,
        [now, limit, new Date(now.getTime() + LEASE_MS), PER_MERCHANT],
      ),
    );
  }

  private async send(delivery: ClaimedDelivery): Promise<void> {
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    this.#attempts++;
    const statusCode = await this.post(delivery.url, delivery.body, {
      'Content-Type': 'application/json',
      'User-Agent': 'pay-checkout-webhooks/1',
      'Pay-Checkout-Event-Id': delivery.event_id,
      [SIGNATURE_HEADER]: webhookSignature(delivery.body, this.sealer.open(delivery.secret_sealed), timestamp),
    });
    const delivered = statusCode !== undefined && statusCode >= 200 && statusCode < 300;
    const now = this.clock.now();
    const attempts = delivery.attempts + 1;
    const gaveUp = now.getTime() - delivery.event_at.getTime() >= GIVE_UP_AFTER_MS;
    const status = delivered ? 'delivered' : gaveUp ? 'failed' : 'pending';
    await this.db.query(
      `UPDATE webhook_deliveries SET status = $2, attempts = $3, last_status_code = $4, last_error = $5, locked_until = NULL,
         next_attempt_at = $6, delivered_at = $7 WHERE delivery_id = $1`,
      [
        delivery.delivery_id,
        status,
        attempts,
        statusCode ?? null,
        delivered ? null : attemptError(statusCode),
        status === 'pending' ? new Date(now.getTime() + retryDelay(attempts)) : null,
        status === 'delivered' ? now : null,
      ],
    );
  }

  /**
   * POSTs to an endpoint on the addresses its host has now, if they may be sent to (they are connected to as
   * checked); resolves with the status code, or undefined when nothing answered (refused, unresolved, timed out).
   * The reason stays here: the merchant's log says only "unreachable", never what the gateway's network said.
   */
  private async post(target: string, body: string, headers: Record<string, string>): Promise<number | undefined> {
    const url = new URL(target);
    const addresses = await this.targets.addresses(url).catch(() => undefined);
    if (!addresses) return undefined;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      const request = send(url, { method: 'POST', headers, agent: false, lookup: pinnedLookup(addresses), signal: AbortSignal.timeout(this.timeoutMs) }, (response) => {
        resolve(response.statusCode);
        response.destroy();
      });
      request.once('error', () => resolve(undefined));
      request.end(body);
    });
  }

  private async ownEndpoint(merchantId: string, endpointId: string): Promise<void> {
    const row = await one(this.db, 'SELECT 1 FROM webhook_endpoints WHERE endpoint_id = $1 AND merchant_id = $2', [endpointId, merchantId]);
    if (!row) throw notFound('There is no such webhook endpoint.');
  }
}

function deliveryView(row: DeliveryRow): WebhookDelivery {
  return {
    delivery_id: row.delivery_id,
    event_id: row.event_id,
    type: row.type,
    payment_link_ref: row.payment_link_ref,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    delivered_at: row.delivered_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}
