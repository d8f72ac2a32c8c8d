// Payment changes as events: written in the transaction that makes the change (a reconciliation's sink: the payments
// as the customer sees them, recorded when they changed), announced with NOTIFY on commit, so every gateway process on
// the database streams every change, and a reconnecting client replays what it missed. Every event stream of a link
// shares one subscription: one query per change, whatever the number of streams.
import type { Payment } from '../../../contract/index.js';
import { canonicalize } from '../../../merchant/jcs.js';
import type { Clock } from '../../clock.js';
import type { Database, Sql } from '../../storage/database.js';
import type { PaymentView } from '../payments/payment-view.js';
import type { ChangeSink, LinkChange } from '../payments/reconciler.js';
import { eventsAfter, insertEvent, latestEvent, PAYMENT_EVENTS_CHANNEL, type PaymentEventRow as PaymentEvent } from '../../storage/events.js';

export type { PaymentEvent };

/** One stream's side of a subscription: it hears each event once, in order, after those it already had. */
export type EventListener = (events: readonly PaymentEvent[]) => void;

interface Subscriber {
  listener: EventListener;
  /** The last event this stream has; undefined until it has the current state. */
  cursor: number | undefined;
}

/** The streams of one link and the events they all read. */
interface LinkFeed {
  subscribers: Set<Subscriber>;
  /** The last event read for this link; the next read starts after it. */
  cursor: number;
  /** Reads run one after another, so a burst of NOTIFYs never sends an event twice or out of order. */
  reading: Promise<void>;
}

export class PaymentEvents implements ChangeSink {
  readonly #feeds = new Map<string, LinkFeed>();
  #unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly view: PaymentView,
  ) {}

  /** A reconciliation's payments as the customer sees them: each recorded when it changed. */
  async apply(tx: Sql, { after, lastEvents }: LinkChange): Promise<void> {
    for (const [i, row] of after.payments.entries()) {
      const payment = await this.view.render(tx, after.link, row, after.states[i]!, after.transfers.get(row.payment_id) ?? []);
      await this.recordIfChanged(tx, after.link.payment_link_ref, payment, lastEvents.get(row.payment_id));
    }
  }

  /** Starts hearing NOTIFY, from this process and any other on the database. */
  async start(): Promise<void> {
    this.#unlisten = await this.db.listen(PAYMENT_EVENTS_CHANNEL, (ref) => {
      // No payload: the connection was lost and is back, so any link may have missed events.
      if (ref === undefined) for (const [each, feed] of this.#feeds) this.#read(each, feed);
      else {
        const feed = this.#feeds.get(ref);
        if (feed) this.#read(ref, feed);
      }
    });
  }

  async stop(): Promise<void> {
    await this.#unlisten?.();
  }

  /** Records the payment as it now is, unless the last event (`last`, read with the payment's facts) shows exactly that. */
  private async recordIfChanged(tx: Sql, ref: string, payment: Payment, last: Payment | undefined): Promise<void> {
    // jsonb keeps its own key order, so the two are compared in canonical form.
    if (last && canonicalize(last) === canonicalize(payment)) return;
    await insertEvent(tx, ref, payment, this.clock.now());
  }

  /**
   * Streams a link's events to `listener`: first those after `lastEventId` (without it, only the latest: the current
   * state), then every new one. Returns the unsubscribe function.
   */
  async subscribe(ref: string, lastEventId: number | undefined, listener: EventListener): Promise<() => void> {
    let feed = this.#feeds.get(ref);
    if (!feed) {
      feed = { subscribers: new Set(), cursor: 0, reading: Promise.resolve() };
      this.#feeds.set(ref, feed);
    }
    const subscriber: Subscriber = { listener, cursor: undefined };
    const current = feed;
    const alone = current.subscribers.size === 0;
    current.subscribers.add(subscriber);
    // The first read for this stream goes through the link's queue, after any read under way.
    const first = current.reading.then(async () => {
      if (lastEventId === undefined) {
        // Only the current state: not a complete read, so the feed's cursor moves only if no other stream relies on it.
        const latest = await this.#latest(ref);
        subscriber.cursor = latest?.event_id ?? 0;
        if (alone) current.cursor = subscriber.cursor;
        if (latest) listener([latest]);
        return;
      }
      // A replay is a complete read from where it starts: what it finds beyond the feed's cursor is news for every
      // stream of the link.
      subscriber.cursor = lastEventId;
      if (alone) current.cursor = lastEventId;
      this.#hand(current, await this.#after(ref, Math.min(lastEventId, current.cursor)));
    });
    current.reading = first.catch(() => undefined);
    const unsubscribe = () => {
      current.subscribers.delete(subscriber);
      if (current.subscribers.size === 0 && this.#feeds.get(ref) === current) this.#feeds.delete(ref);
    };
    try {
      await first;
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  #read(ref: string, feed: LinkFeed): void {
    feed.reading = feed.reading
      .then(async () => {
        this.#hand(feed, await this.#after(ref, feed.cursor));
      })
      .catch((error: unknown) => console.error('payment event stream read failed', error));
  }

  /** Gives each stream the events of a complete read that it does not have yet. */
  #hand(feed: LinkFeed, events: readonly PaymentEvent[]): void {
    for (const event of events) feed.cursor = Math.max(feed.cursor, event.event_id);
    for (const subscriber of feed.subscribers) {
      if (subscriber.cursor === undefined) continue;
      const fresh = events.filter((e) => e.event_id > subscriber.cursor!);
      if (!fresh.length) continue;
      subscriber.cursor = Math.max(subscriber.cursor, ...fresh.map((e) => e.event_id));
      subscriber.listener(fresh);
    }
  }

  #after(ref: string, eventId: number): Promise<PaymentEvent[]> {
    return eventsAfter(this.db, ref, eventId);
  }

  #latest(ref: string): Promise<PaymentEvent | undefined> {
    return latestEvent(this.db, ref);
  }
}
