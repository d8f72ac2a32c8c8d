// A link's facts: its row, its payments and the transfers to their addresses that the gateway followed on their chains
// (chain-facts.ts), read as one JSON value in one statement. Every status is derived from them
// (services/payments/payment-state.ts), and the answers derived from them are kept with their text
// (services/payments/derived-answers.ts).
import type { Payment } from '../../contract/index.js';
import { one, type Sql } from './database.js';
import { LINK_COLUMNS, paymentColumns, type LinkRecord, type LinkRow, type PaymentRow } from './payments.js';

/** A transfer into the address of one of a link's payments, with what its chain says of it now. */
export interface TransferRow {
  payment_id: string;
  tx_hash: string;
  from_address: string;
  amount_atomic: string;
  /** Counted from the network's cursor; left out by the reads that show none (refunds: linkRecordFacts). */
  confirmations?: number;
  seen_at: Date;
  confirmed_at: Date | null;
}

/**
 * A transfer `t` into the address of payment `p`; with `tip`, its confirmations counted from the gateway's cursor on
 * its network (tip − height + 1). It is confirmed when the gateway recorded the block that gave it its confirmations.
 * The blocks are looked up only for transfers there are, so a payment that has none costs the database one index probe.
 */
const transferColumns = (tip: boolean) => `t.tx_hash, t.from_address, t.amount_atomic::text AS amount_atomic, t.seen_at,
       ${tip ? 'CASE WHEN t.block_height IS NULL THEN 0 ELSE (SELECT height FROM chain_cursors WHERE network = p.network) - t.block_height + 1 END::int AS confirmations,' : ''}
       (SELECT recorded_at FROM chain_blocks b WHERE b.network = t.network AND b.height = t.block_height + p.confirmations_required - 1) AS confirmed_at`;
const TO_PAYMENT = 't.to_address = p.address AND t.network = p.network';

/**
 * A link's payments, locked in creation order, each with its transfers and the last event the customer's stream has
 * of it, in one statement: what reconciling reads once it holds the link's lock. It is a statement of its own, after
 * the one that waited for the link's lock, so that it sees what the transaction it waited for committed (a statement
 * sees the database as it was when the statement began).
 */
const LOCKED_PAYMENTS = `WITH p AS (SELECT * FROM payments WHERE payment_link_ref = $1 ORDER BY seq FOR UPDATE)
  SELECT coalesce(json_agg(x ORDER BY x.seq), '[]')::text AS payments FROM (SELECT ${paymentColumns('$2')}, p.seq,
    (SELECT coalesce(json_agg(t), '[]') FROM (SELECT ${transferColumns(true)} FROM chain_transfers t WHERE ${TO_PAYMENT} ORDER BY t.seq) t) AS transfers,
    (SELECT payment FROM payment_events e WHERE e.payment_id = p.payment_id ORDER BY event_id DESC LIMIT 1) AS last_event
  FROM p) x`;

/** A link's payments as its reconciliation holds them. */
export interface LockedPayments extends Pick<LinkRows, 'payments' | 'transfers'> {
  /** The last event of each payment (by payment_id): a new one is recorded only when the payment changed. */
  lastEvents: Map<string, Payment>;
}

export async function lockPaymentsOfLink(sql: Sql, ref: string, now: Date): Promise<LockedPayments> {
  const [row] = await sql.query<{ payments: string }>(LOCKED_PAYMENTS, [ref, now]);
  const rows = JSON.parse(row!.payments) as (LinkFactsJson['payments'][number] & { seq: number; last_event: Payment | null })[];
  return {
    ...paymentRowsOf(rows.map(({ seq: _seq, last_event: _last, ...p }) => p)),
    lastEvents: new Map(rows.filter((r) => r.last_event).map((r) => [r.payment_id, r.last_event!])),
  };
}

/** A link (its whole row, or its record), its payments and the chain's transfers to their addresses. */
export interface LinkRows<Link extends LinkRecord = LinkRow> {
  link: Link;
  payments: PaymentRow[];
  /** Each payment's in the order the chain saw them, payment after payment. */
  transfers: TransferRow[];
  /** The networks the gateway sees now (a node's that cannot be seen is missing): new payments open only on these. */
  available?: string[];
}

/**
 * A link row `l`'s columns, with its payments, each with the transfers to its address, as one JSON value: a link's
 * facts in one column, which the driver parses once where thirteen columns would each have their own parser. `now` is
 * the parameter that holds the time (paymentColumns).
 */
const linkFacts = (columns: readonly string[], tip: boolean, now: string) => `json_build_object('link', json_build_object(${columns.map((column) => `'${column}', l.${column}`).join(', ')}),
  'available', (SELECT coalesce(json_agg(network ORDER BY network), '[]') FROM chain_cursors c
    WHERE c.synced_at IS NULL OR c.synced_at + c.stale_after_ms * interval '1 millisecond' >= ${now}),
  'payments', (SELECT coalesce(json_agg(p), '[]') FROM (SELECT ${paymentColumns(now)},
    (SELECT coalesce(json_agg(t), '[]') FROM (SELECT ${transferColumns(tip)} FROM chain_transfers t WHERE ${TO_PAYMENT} ORDER BY t.seq) t) AS transfers
    FROM payments p WHERE payment_link_ref = l.payment_link_ref ORDER BY seq) p))`;

const RECORD_COLUMNS = LINK_COLUMNS.filter((column) => column !== 'request');
/**
 * A link's facts with its record, not its request, and transfers without their confirmations: a request (order
 * lines, shipping, billing) is most of a link's bytes, which PostgreSQL would write out as JSON and the driver parse,
 * and the cursor costs PostgreSQL a tenth of the statement, for reads that show neither.
 */
export const linkRecordFacts = (now: string) => linkFacts(RECORD_COLUMNS, false, now);

/** A link's facts as the driver reads them: timestamps as text, each payment with its transfers. */
export interface LinkFactsJson<Link extends LinkRecord = LinkRow> {
  available: string[];
  link: Jsonified<Link>;
  payments: (Jsonified<PaymentRow> & { transfers: Jsonified<Omit<TransferRow, 'payment_id'>>[] })[];
}

/** A link's facts as rows. */
export function linkRowsOf<Link extends LinkRecord>({ link, payments, available }: LinkFactsJson<Link>): LinkRows<Link> {
  return { available, link: withDates(link, ['expires_at', 'superseded_at', 'cancelled_at', 'paid_at', 'created_at']), ...paymentRowsOf(payments) };
}

/** Payments as the facts' JSON carries them (each with its transfers), as rows and transfers. */
function paymentRowsOf(payments: LinkFactsJson['payments']): Pick<LinkRows, 'payments' | 'transfers'> {
  return {
    payments: payments.map(({ transfers: _transfers, ...p }) =>
      withDates<PaymentRow>(p, ['quote_expires_at', 'accepted_at', 'paid_at', 'reorged_at', 'known_until', 'created_at']),
    ),
    transfers: payments.flatMap((p) => p.transfers.map((t) => withDates<TransferRow>({ payment_id: p.payment_id, ...t }, ['seen_at', 'confirmed_at']))),
  };
}

const factsByRef = (facts: string) => `SELECT (${facts})::text AS facts FROM payment_links l WHERE payment_link_ref = $1`;
const LINK_FACTS_BY_REF = factsByRef(linkFacts(LINK_COLUMNS, true, '$2'));
const LINK_RECORD_FACTS_BY_REF = factsByRef(linkFacts(RECORD_COLUMNS, true, '$2'));

/**
 * A link's facts in one statement (reads that need no lock), as JSON text; undefined when there is no such link. Text,
 * so that an answer derived from them can be kept with it (services/payments/derived-answers.ts); parseLinkFacts reads it.
 * Without `request`, the link's record in place of its row: for a reader that keeps the request, which never changes.
 */
export async function readLinkFactsText(sql: Sql, ref: string, now: Date, { request = true } = {}): Promise<string | undefined> {
  return (await one<{ facts: string }>(sql, request ? LINK_FACTS_BY_REF : LINK_RECORD_FACTS_BY_REF, [ref, now]))?.facts;
}

export const parseLinkFacts = (text: string): LinkRows => linkRowsOf(JSON.parse(text) as LinkFactsJson);
export const parseLinkRecordFacts = (text: string): LinkRows<LinkRecord> => linkRowsOf(JSON.parse(text) as LinkFactsJson<LinkRecord>);

/** A row as JSON carries it: its timestamps as text. */
type Jsonified<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

function withDates<T>(row: Jsonified<T>, keys: (keyof T)[]): T {
  const dated: Record<string, unknown> = { ...row };
  for (const key of keys) {
    const value = row[key];
    if (value !== null) dated[key as string] = new Date(value as string);
  }
  return dated as T;
}
