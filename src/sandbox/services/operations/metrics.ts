// The gateway's metrics in Prometheus's text format (GET /metrics; docs/operations.md, "Observe", says what each means).
// Counted as things happen: HTTP requests, statements. Read when scraped: the pool, the chains as followed, the webhook
// outbox, open event streams, payments by status. One registry per gateway (tests run several in one process).
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Network, WebhookUrlRule } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import type { EventStreams } from '../../http/event-stream.js';
import type { Database, Timed } from '../../storage/database.js';
import { outboxBacklog, paymentsByStatus } from '../../storage/operations.js';
import type { CrossCheckOutcome } from '../chains/cross-check.js';
import type { Watcher } from '../chains/watcher.js';
import type { RateBook } from '../rates/rate-book.js';
import type { RateFeed } from '../rates/rate-feed.js';
import type { SandboxControls } from '../sandbox/sandbox-controls.js';
import { Durations } from './durations.js';

/** What the metrics read when scraped. */
export interface Observed {
  db: Database;
  clock: Clock;
  eventStreams: EventStreams;
  sandboxControls: SandboxControls;
  watcher: Watcher;
  rateFeed: RateFeed;
  rateBook: RateBook;
}

/** The buckets every duration here shares, in seconds. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new Registry();
  readonly #http = new Durations('pay_checkout_http_request_duration_seconds', 'HTTP requests by method, declared route and status: time to the response (an event stream: to its start)', SECONDS, this.registry);
  readonly #db = new Durations('pay_checkout_db_duration_seconds', 'Database work by kind: a statement on its own, or a whole transaction (retries included)', SECONDS, this.registry);
  readonly #refusedEndpoints = new Counter({
    name: 'pay_checkout_webhook_endpoints_refused_total',
    help: 'Webhook endpoints found refused at delivery by the URL rule they break (an endpoint added before the rule): once per endpoint and process, again after it delivered',
    labelNames: ['rule'] as const,
    registers: [this.registry],
  });
  readonly #crossChecked = new Counter({
    name: 'pay_checkout_chain_cross_check_disagreements_total',
    help: "Per network, addresses where the chain held more of the token than the gateway recorded (services/chains/cross-check.ts), by outcome once their blocks were read again: recovered (the transfers found), unresolved (still more on chain; nothing recorded)",
    labelNames: ['network', 'outcome'] as const,
    registers: [this.registry],
  });
  #observed: Observed | undefined;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const gauge = (name: string, help: string, labelNames: string[], collect: (g: Gauge) => Promise<void> | void) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers: [this.registry],
        async collect() {
          this.reset();
          await collect(this);
        },
      });
    gauge('pay_checkout_db_pool_connections', 'PostgreSQL connections of the pool by state (total, idle, waiting: callers waiting for one; max)', ['state'], (g) => {
      const pool = this.#observed?.db.pool?.();
      if (pool) for (const [state, value] of Object.entries(pool)) g.set({ state }, value);
    });
    gauge('pay_checkout_event_streams_open', 'Event streams open on this process', [], (g) => g.set(this.#observed?.eventStreams.size ?? 0));
    const chains = this.#reading(async (o) => (await o.sandboxControls.chainState()).networks);
    gauge('pay_checkout_chain_height', 'Per network, the height of the block the gateway has followed to (its cursor)', ['network'], async (g) => {
      for (const n of (await chains()) ?? []) g.set({ network: n.network }, n.tip);
    });
    gauge('pay_checkout_chain_available', 'Per network, 1 while the chain is seen (a node answering), else 0: it takes no new payments', ['network'], async (g) => {
      for (const n of (await chains()) ?? []) g.set({ network: n.network }, n.available ? 1 : 0);
    });
    gauge(
      'pay_checkout_watcher_lag_seconds',
      "Per network, seconds since a gateway process last saw the chain in full (a simulated chain: since this process's last round)",
      ['network'],
      async (g) => {
        const now = Date.now();
        const rounds = this.#observed?.watcher.lastRounds();
        for (const n of (await chains()) ?? []) {
          const seen = n.synced_at ? Date.parse(n.synced_at) : rounds?.get(n.network);
          if (seen !== undefined) g.set({ network: n.network }, Math.max(0, now - seen) / 1000);
        }
      },
    );
    gauge('pay_checkout_watcher_last_round_timestamp_seconds', "Per network, when this process's watcher last finished a round, failed or not", ['network'], (g) => {
      for (const [network, at] of this.#observed?.watcher.lastRounds() ?? []) g.set({ network }, at / 1000);
    });
    gauge('pay_checkout_rate_source_last_success_timestamp_seconds', 'Per rate source, when it last answered this process with prices', ['source'], (g) => {
      for (const s of this.#observed?.rateFeed.status() ?? []) if (s.last_success_at) g.set({ source: s.source }, s.last_success_at.getTime() / 1000);
    });
    gauge('pay_checkout_rate_source_age_seconds', "Per rate source, the age of the oldest price of its last answer, by the source's own time", ['source'], (g) => {
      const now = this.#observed?.clock.now().getTime() ?? Date.now();
      for (const s of this.#observed?.rateFeed.status() ?? []) if (s.oldest_price_at) g.set({ source: s.source }, Math.max(0, now - s.oldest_price_at.getTime()) / 1000);
    });
    gauge('pay_checkout_rate_source_failures', 'Per rate source, its failed requests in a row (0 while it answers)', ['source'], (g) => {
      for (const s of this.#observed?.rateFeed.status() ?? []) g.set({ source: s.source }, s.failures);
    });
    gauge('pay_checkout_rate_available', 'Per asset, 1 while its rule makes a rate (enough fresh sources), else 0: it takes no new quotes', ['asset'], (g) => {
      const observed = this.#observed;
      if (!observed) return;
      const missing = observed.rateBook.unavailable(observed.clock.now());
      for (const asset of observed.rateBook.assets) g.set({ asset }, missing.includes(asset) ? 0 : 1);
    });
    const backlog = this.#reading((o) => outboxBacklog(o.db, o.clock.now()));
    gauge('pay_checkout_webhook_outbox_pending', 'Webhook deliveries still to be sent (all processes)', [], async (g) => g.set((await backlog())?.pending ?? 0));
    gauge('pay_checkout_webhook_outbox_oldest_seconds', 'Age of the oldest webhook delivery still to be sent', [], async (g) => g.set((await backlog())?.oldest_seconds ?? 0));
    const payments = this.#reading((o) => paymentsByStatus(o.db));
    gauge('pay_checkout_payments', 'Payments by status (all processes)', ['status'], async (g) => {
      for (const { status, payments: count } of (await payments()) ?? []) g.set({ status }, count);
    });
  }

  /** Starts reading what is scraped. */
  observe(observed: Observed): void {
    this.#observed = observed;
  }

  readonly timed: Timed = (kind, seconds) => this.#db.observe(kind, () => ({ kind }), seconds);

  endpointRefused(rule: WebhookUrlRule): void {
    this.#refusedEndpoints.inc({ rule });
  }

  crossChecked(network: Network, outcome: CrossCheckOutcome): void {
    this.#crossChecked.inc({ network, outcome });
  }

  request(method: string, route: string, status: number, seconds: number): void {
    this.#http.observe(`${method} ${status} ${route}`, () => ({ method, route, status }), seconds);
  }

  /** A read shared by the gauges of one scrape (they are collected together, one after another). */
  #reading<T>(read: (observed: Observed) => Promise<T>): () => Promise<T | undefined> {
    let last: { at: number; value: Promise<T | undefined> } | undefined;
    return () => {
      const observed = this.#observed;
      if (!observed) return Promise.resolve(undefined);
      if (!last || Date.now() - last.at > 1000) last = { at: Date.now(), value: read(observed).catch(() => undefined) };
      return last.value;
    };
  }
}
