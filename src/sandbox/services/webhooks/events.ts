// The events API: what the outbox wrote for a merchant (outbox.ts, one `emit` for every kind of event), read back in
// the order of its `sequence`, so that a merchant whose receiver was down, or who lost what it received, catches up.
import type { MerchantEventList, MerchantEventQuery, MerchantEventResource, WebhookEventType } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { malformed, notFound } from '../../errors.js';
import type { Database } from '../../storage/database.js';
import { eventOfMerchant, eventsAfterSequence, sequenceOfEvent, type MerchantEventRow } from '../../storage/merchant-events.js';

const DAY_MS = 86_400_000;
const DEFAULT_LIMIT = 10;

const resource = (row: MerchantEventRow): MerchantEventResource => ({ ...(JSON.parse(row.body) as MerchantEventResource), sequence: Number(row.sequence) });

export class MerchantEvents {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly retentionDays: number,
  ) {}

  /** The oldest instant an event is still listed from. */
  private since(): Date {
    return new Date(this.clock.now().getTime() - this.retentionDays * DAY_MS);
  }

  /** A page of the merchant's events after `after` (an event id of its own), oldest first. */
  async list(merchantId: string, query: MerchantEventQuery): Promise<MerchantEventList> {
    const since = this.since();
    const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
    let from = 0;
    if (query.after !== undefined) {
      const sequence = await sequenceOfEvent(this.db, merchantId, query.after, since);
      if (sequence === undefined) {
        const message = `names none of your events kept (events are kept ${this.retentionDays} days); list from the start, without after`;
        throw malformed(`after: ${message}.`, [{ path: 'after', message }]);
      }
      from = sequence;
    }
    // One more than asked says whether there is more, without a count.
    const rows = await eventsAfterSequence(this.db, merchantId, from, limit + 1, query.type as WebhookEventType | undefined, since);
    const data = rows.slice(0, limit).map(resource);
    return {
      data,
      has_more: rows.length > limit,
      next_after: data.at(-1)?.id ?? query.after ?? null,
      retention_days: this.retentionDays,
      available_from: since.toISOString(),
    };
  }

  async get(merchantId: string, eventId: string): Promise<MerchantEventResource> {
    const row = await eventOfMerchant(this.db, merchantId, eventId, this.since());
    if (!row) throw notFound('There is no such event (or it is older than events are kept).');
    return resource(row);
  }
}
