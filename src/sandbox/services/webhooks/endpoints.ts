// A merchant's webhook endpoints and their delivery logs: adding one (its URL checked by targets.ts),
// listing, removing (what waited for it fails, never sent), a delivery with its payload and every attempt, sending a
// delivery again, and sending an endpoint a test event.
import { WEBHOOK_TEST_EVENT, type WebhookDelivery, type WebhookDeliveryDetail, type WebhookEndpoint, type WebhookTestEvent } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import type { Environment } from '../../../contract/rules.js';
import type { LimitSettings } from '../../config.js';
import { conflict, invalid, notFound } from '../../errors.js';
import { randomToken, type Sealer } from '../../secrets.js';
import type { Database, Sql } from '../../storage/database.js';
import {
  attemptsOfDelivery,
  deliveriesOfEndpoint,
  deliveryOfEvent,
  deliveryOfMerchant,
  enqueueEvent,
  failPendingDeliveries,
  redeliverNow,
  type DeliveryRow,
} from '../../storage/webhook-deliveries.js';
import {
  endpointOf,
  hasLiveEndpoint,
  insertEndpointWithin,
  liveEndpoints,
  ownsEndpoint,
  ownsLiveEndpoint,
  removeEndpoint,
  type EndpointViewRow,
} from '../../storage/webhook-endpoints.js';
import { issueCredential } from '../merchant/credentials.js';
import type { Idempotency, IdempotencyScope } from '../merchant/idempotency.js';
import type { RateLimits } from '../operations/rate-limits.js';
import { RefusedTarget, UnresolvedTarget, type WebhookTargets } from './targets.js';

/** How much of an endpoint's delivery log a merchant reads at once, newest first. */
const LOG_LENGTH = 200;

export class WebhookEndpoints {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
    /** Which URLs may be sent to (public https:, loopback when the sandbox allows it). */
    private readonly targets: WebhookTargets,
    private readonly idempotency: Idempotency,
    private readonly rateLimits: RateLimits,
    /**
     * Live endpoints a merchant may have (each event is one delivery to each), and how many it may add in a minute:
     * an add past the cap still costs a transaction, so a flood of them is refused before any (docs/security.md, "Limits").
     */
    private readonly limits: Pick<LimitSettings, 'webhookEndpointsPerMerchant' | 'webhookEndpointAddsPerMerchantPerMinute'>,
    /** Names the secrets it issues (merchant/credentials.ts). */
    private readonly environment: Environment,
  ) {}

  /** A new endpoint and its secret (a replay: the same endpoint, its secret opened again; a key keeps only its id). */
  async add(merchantId: string, url: string, idempotency: Omit<IdempotencyScope, 'merchantId'>): Promise<{ value: WebhookEndpoint; replayed: boolean }> {
    await this.rateLimits.take(`endpoint-add:merchant:${merchantId}`, {
      limit: this.limits.webhookEndpointAddsPerMerchantPerMinute,
      windowSeconds: 60,
      refusal: 'Too many webhook endpoints added by this merchant in a minute.',
    });
    await this.#checkTarget(url);
    const { value, replayed } = await this.idempotency.run({ ...idempotency, merchantId }, async (tx) => ({ endpoint_id: await this.#insert(tx, merchantId, url) }));
    return { value: this.#view((await endpointOf(this.db, merchantId, value.endpoint_id))!), replayed };
  }

  async #checkTarget(url: string): Promise<void> {
    const refuse = (message: string) => invalid(`The webhook endpoint URL ${message}.`, [{ path: 'url', message }]);
    if (!URL.canParse(url)) throw refuse('must be an absolute https: URL');
    // A name that does not resolve is refused too: it may be an internal name (metadata.google.internal) that
    // resolves only inside a network. A name that resolves is checked again, like every name, at each delivery.
    await this.targets.addresses(new URL(url)).catch((error: unknown) => {
      throw error instanceof RefusedTarget || error instanceof UnresolvedTarget ? refuse(error.message) : error;
    });
  }

  /** Stores an endpoint with a new secret, sealed; its id. */
  async #insert(tx: Sql, merchantId: string, url: string): Promise<string> {
    const row = { endpoint_id: randomToken('we', 12), url, secret_sealed: this.sealer.seal(issueCredential(this.environment, 'webhookSecret')), created_at: this.clock.now() };
    const cap = this.limits.webhookEndpointsPerMerchant;
    if (!(await insertEndpointWithin(tx, merchantId, row, cap))) {
      // A count, not a rate: no wait frees one, so a 409 that says what does.
      throw conflict(`A merchant has at most ${cap} webhook endpoints: remove one before adding another.`);
    }
    return row.endpoint_id;
  }

  /** The sandbox merchant's endpoint from configuration, added once. */
  async ensure(merchantId: string, url: string): Promise<void> {
    if (await hasLiveEndpoint(this.db, merchantId, url)) return;
    await this.#checkTarget(url);
    await this.db.transaction((tx) => this.#insert(tx, merchantId, url));
  }

  async list(merchantId: string): Promise<WebhookEndpoint[]> {
    return (await liveEndpoints(this.db, merchantId)).map((r) => this.#view(r));
  }

  #view(row: EndpointViewRow): WebhookEndpoint {
    return {
      endpoint_id: row.endpoint_id,
      url: row.url,
      secret: this.sealer.open(row.secret_sealed),
      created_at: row.created_at.toISOString(),
      refused: row.refused_rule && row.refused_reason && row.refused_at ? { rule: row.refused_rule, reason: row.refused_reason, since: row.refused_at.toISOString() } : null,
    };
  }

  /** Stops an endpoint: no new events, and what was still waiting for it is marked failed, never sent. */
  async remove(merchantId: string, endpointId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await removeEndpoint(tx, merchantId, endpointId, this.clock.now()))) throw notFound('There is no such webhook endpoint.');
      await failPendingDeliveries(tx, endpointId, 'the endpoint was removed');
    });
  }

  /** The delivery log of an endpoint, newest first: the latest ones, or those of one payment link. */
  async deliveries(merchantId: string, endpointId: string, paymentLinkRef?: string): Promise<WebhookDelivery[]> {
    if (!(await ownsEndpoint(this.db, merchantId, endpointId))) throw notFound('There is no such webhook endpoint.');
    return (await deliveriesOfEndpoint(this.db, endpointId, paymentLinkRef, LOG_LENGTH)).map(deliveryView);
  }

  /** A delivery, the body it sends, and every attempt of it, oldest first. */
  async delivery(merchantId: string, deliveryId: number): Promise<WebhookDeliveryDetail> {
    const row = await deliveryOfMerchant(this.db, merchantId, deliveryId);
    if (!row) throw notFound('There is no such webhook delivery.');
    const attempts = await attemptsOfDelivery(this.db, deliveryId);
    return {
      ...deliveryView(row),
      endpoint_id: row.endpoint_id,
      payload: row.body,
      attempt_log: attempts.map((a) => ({ ...a, attempted_at: a.attempted_at.toISOString() })),
    };
  }

  /**
   * Queues a test event for one endpoint, signed and sent as every event is (so it checks the URL, the receiver's
   * signature check and its answer); it waits for no other delivery, and the endpoint's log lists it.
   */
  async sendTest(merchantId: string, endpointId: string): Promise<WebhookDelivery> {
    const now = this.clock.now();
    const event: WebhookTestEvent = {
      id: randomToken('evt', 16),
      type: WEBHOOK_TEST_EVENT,
      created_at: now.toISOString(),
      payment_id: null,
      refund_id: null,
      data: { payment_link: null, endpoint_id: endpointId },
    };
    const row = await this.db.transaction(async (tx) => {
      if (!(await ownsLiveEndpoint(tx, merchantId, endpointId))) throw notFound('There is no such webhook endpoint.');
      await enqueueEvent(
        tx,
        { event_id: event.id, merchant_id: merchantId, type: event.type, payment_link_ref: null, body: JSON.stringify(event), created_at: now },
        [endpointId],
      );
      return deliveryOfEvent(tx, event.id, endpointId);
    });
    return deliveryView(row);
  }

  /** Sends a delivery again now (after the earlier events of its link, should one be pending), whatever became of it. */
  async redeliver(merchantId: string, deliveryId: number): Promise<WebhookDelivery> {
    const row = await this.db.transaction((tx) => redeliverNow(tx, merchantId, deliveryId, this.clock.now()));
    if (!row) throw notFound('There is no such webhook delivery, or its endpoint was removed.');
    return deliveryView(row);
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
