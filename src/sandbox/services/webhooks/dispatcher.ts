// The webhook dispatcher: sends what the outbox (outbox.ts) queued, at least once, with exponential backoff
// for three days of sandbox time; in order per link and endpoint; several gateway processes share the work through
// row locks (SKIP LOCKED) and leases, so none sends a delivery another is sending. Each delivery is sent on its own,
// and a merchant has only a few in flight at once, so a receiver that hangs until the timeout holds back its own
// merchant's deliveries, never another's.
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Clock } from '../../clock.js';
import { GatewayError } from '../../errors.js';
import type { Sealer } from '../../secrets.js';
import { log } from '../../logging.js';
import type { Metrics } from '../operations/metrics.js';
import { WEBHOOK_RESPONSE_BODY_BYTES, type WebhookAttempt } from '../../../contract/index.js';
import { isTransient, type Database } from '../../storage/database.js';
import { claimDueDeliveries, recordAttempt, releaseLease, WEBHOOKS_QUEUED, type AttemptRow, type ClaimedDelivery } from '../../storage/webhook-deliveries.js';
import { markEndpointRefusal } from '../../storage/webhook-endpoints.js';
import { pinnedLookup, RefusedTarget, UnresolvedTarget, type WebhookTargets } from './targets.js';

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

export const retryDelay = (attempts: number): number => Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), MAX_RETRY_MS);

/**
 * What the delivery log says of an attempt that did not deliver: the receiver's status, that the URL breaks a rule of
 * the gateway's (an endpoint added before the rule: it may answer, and is never sent to), or that none answered.
 */
const attemptError = (answer: Answer) => (answer.refused ? 'refused_address' : answer.status_code === null ? 'unreachable' : `HTTP ${answer.status_code}`);

/** What a POST came to: the receiver's status and the start of its answer, or why there was none. */
type Answer = Pick<WebhookAttempt, 'status_code' | 'response_body' | 'response_truncated' | 'error'> & {
  /** What the URL rule said at this attempt: the rule it breaks, or null when it let it through; absent when it could not tell (a host that did not resolve). */
  refused?: RefusedTarget | null;
};

const TLS_ERROR = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|^EPROTO$/;

/** A failed request in the merchant's words: never the text of the gateway's network error. */
function failureOf(error: unknown, timedOut: boolean): Answer['error'] {
  if (timedOut) return 'timeout';
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && TLS_ERROR.test(code) ? 'tls' : 'connection_failed';
}

/** The answer's bytes as text: UTF-8 (invalid bytes replaced), without the NULs a text column refuses. */
const asText = (bytes: Buffer) => bytes.toString('utf8').replaceAll('\0', '');

export class WebhookDispatcher {
  #timer: NodeJS.Timeout | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  /** Sends under way in this process. */
  readonly #inFlight = new Set<Promise<void>>();
  /** The claim under way (one at a time); a wake-up meanwhile asks it to look once more. */
  #claiming: Promise<void> | undefined;
  #lookAgain = false;
  #stopped = false;
  #attempts = 0;
  /** Aborts the sends under way when a stop's deadline comes. */
  #abort = new AbortController();
  /** The endpoints this process found refused, with why: each is one log line and one count, not one a delivery. */
  readonly #refused = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
    /** Which addresses may be sent to, checked again at every delivery. */
    private readonly targets: WebhookTargets,
    private readonly metrics: Metrics,
    /** A receiver that has not answered by then has failed this attempt. */
    private readonly timeoutMs = 10_000,
  ) {}

  /** Sends what is due at once when an event is queued (in any process), and every second for the retries. */
  async start(intervalMs = 1000): Promise<void> {
    this.#stopped = false;
    this.#abort = new AbortController();
    this.#unlisten = await this.db.listen(WEBHOOKS_QUEUED, () => void this.#fill());
    this.#timer = setInterval(() => void this.#fill(), intervalMs);
    this.#timer.unref();
  }

  /**
   * No new claims; the sends under way finish by `deadline` (ms since the epoch). Those that have not are aborted and
   * their leases released, so another process sends them at once instead of after the lease.
   */
  async stop(deadline = Infinity): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    await unlisten?.();
    let timer: NodeJS.Timeout | undefined;
    if (deadline < Infinity) timer = setTimeout(() => this.#abort.abort(), Math.max(0, deadline - Date.now()));
    await this.#settled();
    clearTimeout(timer);
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
    if (!this.#claiming) {
      const claiming = this.#claimWhileAsked();
      this.#claiming = claiming;
      // Cleared once it has settled (which may be at once, when there is nothing to do): never a settled promise left
      // in place, which #settled() would wait on forever.
      void claiming.finally(() => {
        if (this.#claiming === claiming) this.#claiming = undefined;
      });
    }
    return this.#claiming;
  }

  async #claimWhileAsked(): Promise<void> {
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
      log.error({ err: error }, 'webhooks: claiming deliveries failed');
    }
  }

  #send(delivery: ClaimedDelivery): void {
    const sending: Promise<void> = this.send(delivery)
      .catch((error: unknown) =>
        // The endpoint's secret is sealed with a key this process lacks (a rotation, services/operations/data-keys.ts):
        // nothing was sent, and once the lease runs out a process that holds the key sends it.
        error instanceof GatewayError
          ? log.warn({ delivery_id: delivery.delivery_id, reason: error.message }, 'webhooks: delivery not sent by this process, left to another once its lease ends')
          : log.error({ err: error, delivery_id: delivery.delivery_id }, 'webhooks: delivery failed'),
      )
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
    return this.db.transaction((tx) => claimDueDeliveries(tx, now, limit, new Date(now.getTime() + LEASE_MS), PER_MERCHANT));
  }

  private async send(delivery: ClaimedDelivery): Promise<void> {
    const attemptedAt = this.clock.now();
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    this.#attempts++;
    const { signal } = this.#abort;
    const started = performance.now();
    const { refused, ...answer } = await this.post(delivery.url, delivery.body, signal, {
      'Content-Type': 'application/json',
      'User-Agent': 'pay-checkout-webhooks/1',
      'Pay-Checkout-Event-Id': delivery.event_id,
      [SIGNATURE_HEADER]: webhookSignature(delivery.body, this.sealer.open(delivery.secret_sealed), timestamp),
    });
    const duration_ms = Math.round(performance.now() - started);
    const statusCode = answer.status_code;
    const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
    if (!delivered && signal.aborted) return releaseLease(this.db, delivery.delivery_id);
    this.#noteRefusal(delivery.endpoint_id, refused, delivered);
    const now = this.clock.now();
    const attempts = delivery.attempts + 1;
    const gaveUp = now.getTime() - delivery.event_at.getTime() >= GIVE_UP_AFTER_MS;
    const status = delivered ? 'delivered' : gaveUp ? 'failed' : 'pending';
    // The endpoint's mark, read by the merchant (the portal), follows what this attempt found of its URL, when it changed.
    const found = refused === undefined ? undefined : refused && { rule: refused.rule, reason: refused.message };
    const refusal = found !== undefined && (found?.reason ?? null) !== delivery.refused_reason ? found : undefined;
    await this.record(
      delivery,
      refusal,
      {
        status,
        attempts,
        status_code: statusCode,
        error: delivered ? null : attemptError({ ...answer, refused }),
        next_attempt_at: status === 'pending' ? new Date(now.getTime() + retryDelay(attempts)) : null,
        delivered_at: status === 'delivered' ? now : null,
      },
      { attempted_at: attemptedAt, duration_ms, ...answer },
    );
  }

  /** An endpoint found refused says so once (a line, a count), until it delivers again or breaks another rule. */
  #noteRefusal(endpointId: string, refused: RefusedTarget | null | undefined, delivered: boolean): void {
    if (delivered) this.#refused.delete(endpointId);
    if (!refused || this.#refused.get(endpointId) === refused.message) return;
    this.#refused.set(endpointId, refused.message);
    this.metrics.endpointRefused(refused.rule);
    log.warn(
      { endpoint_id: endpointId, rule: refused.rule, reason: refused.message },
      `webhooks: endpoint ${endpointId} is refused at delivery: its URL ${refused.message}; nothing is sent to it until the merchant replaces it`,
    );
  }

  /**
   * Keeps the outcome of a send through a database failover or restart (each try already retries a lost connection):
   * given up, the delivery would go out again once its lease ends, and the merchant would get it twice.
   */
  private async record(
    delivery: ClaimedDelivery,
    refusal: Parameters<typeof markEndpointRefusal>[2] | undefined,
    attempt: Parameters<typeof recordAttempt>[2],
    logged: AttemptRow,
  ): Promise<void> {
    const giveUpAt = Date.now() + LEASE_MS / 2;
    for (let tries = 1; ; tries++) {
      try {
        return await this.db.transaction(async (tx) => {
          await recordAttempt(tx, delivery.delivery_id, attempt, logged);
          if (refusal !== undefined) await markEndpointRefusal(tx, delivery.endpoint_id, refusal, logged.attempted_at);
        });
      } catch (error) {
        if (!isTransient(error) || Date.now() >= giveUpAt) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(250 * tries, 2_000)));
      }
    }
  }

  /**
   * POSTs to an endpoint on the addresses its host has now, if they may be sent to (they are connected to as
   * checked); resolves with the status code and the first WEBHOOK_RESPONSE_BODY_BYTES of the answer, or with why
   * nothing answered, in a word (refused_address, unresolved, timeout, tls, connection_failed): the merchant's log never
   * says what the gateway's network said. The timeout covers the answer's body too: a receiver that sends its status
   * and then trickles keeps what came by then.
   */
  private async post(target: string, body: string, stopping: AbortSignal, headers: Record<string, string>): Promise<Answer> {
    const none = (error: Answer['error']): Answer => ({ status_code: null, response_body: null, response_truncated: false, error });
    const url = new URL(target);
    let addresses: string[];
    try {
      addresses = await this.targets.addresses(url);
    } catch (error) {
      if (error instanceof RefusedTarget) return { ...none('refused_address'), refused: error };
      return none(error instanceof UnresolvedTarget ? 'unresolved' : 'connection_failed');
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const sent = await new Promise<Answer>((resolve) => {
      let answered = false;
      const request = send(url, { method: 'POST', headers, agent: false, lookup: pinnedLookup(addresses), signal: AbortSignal.any([timeout, stopping]) }, (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        let received = 0;
        let truncated = false;
        const done = () => {
          response.destroy();
          const text = asText(Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_BODY_BYTES));
          resolve({ status_code: response.statusCode ?? null, response_body: received ? text : null, response_truncated: truncated, error: null });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          received += chunk.length;
          if (received > WEBHOOK_RESPONSE_BODY_BYTES) {
            truncated = true;
            done();
          }
        });
        response.once('end', done);
        response.once('error', done);
        response.once('close', done);
      });
      // Once the status came, the answer's own end (or close) tells the outcome.
      request.once('error', (error) => answered || resolve(none(failureOf(error, timeout.aborted))));
      request.end(body);
    });
    return { ...sent, refused: null };
  }
}
