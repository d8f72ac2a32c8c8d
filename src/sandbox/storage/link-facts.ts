// A link's facts: its row, its payments and the chain's transfers to their addresses, read as one JSON value in one
// statement. Every status is derived from them (services/payment-state.ts), and the answers derived from them are kept
// with their text (services/derived-answers.ts).
import { one, type Sql } from './database.js';
import { LINK_COLUMNS, PAYMENT, type LinkRecord, type LinkRow, type PaymentRow } from './payments.js';

/** A chain transaction into the address of one of a link's payments, with what the chain says of it now. */
export interface TransferRow {
  payment_id: string;
  tx_hash: string;
  from_address: string;
  amount_atomic: string;
  confirmations: number;
  seen_at: Date;
  confirmed_at: Date | null;
}

/** A transfer without its confirmations, which need the chain's tip: what a link's record reads (refunds show none). */
export type TransferRecord = Omit<TransferRow, 'confirmations'>;

/**
 * A transfer `t` into the address of payment `p`; with `tip`, its confirmations counted from the chain's tip. The
 * blocks are looked up only for transfers there are, so a payment that has none costs the database one index probe.
 */
const transferColumns = (tip: boolean) => `t.tx_hash, t.from_address, t.amount_atomic::text AS amount_atomic, t.created_at AS seen_at,
       ${tip ? 'CASE WHEN t.block_height IS NULL THEN 0 ELSE (SELECT max(height) FROM chain_blocks WHERE network = p.network) - t.block_height + 1 END::int AS confirmations,' : ''}
       (SELECT mined_at FROM chain_blocks b WHERE b.network = t.network AND b.height = t.block_height + p.confirmations_required - 1) AS confirmed_at`;
const TO_PAYMENT = 't.to_address = p.address AND t.network = p.network';

/** What the chain shows at the addresses of a link's payments, in the order it was seen. */
export async function readTransfersOfLink(sql: Sql, ref: string): Promise<TransferRow[]> {
  return sql.query<TransferRow>(
    `SELECT p.payment_id, ${transferColumns(true)} FROM payments p JOIN chain_transactions t ON ${TO_PAYMENT} WHERE p.payment_link_ref = $1 ORDER BY t.seq`,
    [ref],
  );
}

/** A link (its whole row, or its record), its payments and the chain's transfers to their addresses. */
export interface LinkFacts<Link extends LinkRecord = LinkRow, Transfer extends TransferRecord = TransferRow> {
  link: Link;
  payments: PaymentRow[];
  /** Each payment's in the order the chain saw them, payment after payment. */
  transfers: Transfer[];
}

/**
 * A link row `l`'s columns, with its payments, each with the transfers to its address, as one JSON value: a link's
 * facts in one column, which the driver parses once where thirteen columns would each have their own parser.
 */
const linkFacts = (columns: readonly string[], tip: boolean) => `json_build_object('link', json_build_object(${columns.map((column) => `'${column}', l.${column}`).join(', ')}),
  'payments', (SELECT coalesce(json_agg(p), '[]') FROM (SELECT ${PAYMENT},
    (SELECT coalesce(json_agg(t), '[]') FROM (SELECT ${transferColumns(tip)} FROM chain_transactions t WHERE ${TO_PAYMENT} ORDER BY t.seq) t) AS transfers
    FROM payments p WHERE payment_link_ref = l.payment_link_ref ORDER BY seq) p))`;

const LINK_FACTS = linkFacts(LINK_COLUMNS, true);
const RECORD_COLUMNS = LINK_COLUMNS.filter((column) => column !== 'request');
/**
 * LINK_FACTS with the link's record, not its request, and transfers without their confirmations: a request (order
 * lines, shipping, billing) is most of a link's bytes, which PostgreSQL would write out as JSON and the driver parse,
 * and the chain's tip costs PostgreSQL a tenth of the statement, for reads that show neither.
 */
export const LINK_RECORD_FACTS = linkFacts(RECORD_COLUMNS, false);

/** LINK_FACTS or LINK_RECORD_FACTS as the driver reads it: timestamps as text, each payment with its transfers. */
export interface LinkFactsJson<Link extends LinkRecord = LinkRow, Transfer extends TransferRecord = TransferRow> {
  link: Jsonified<Link>;
  payments: (Jsonified<PaymentRow> & { transfers: Jsonified<Omit<Transfer, 'payment_id'>>[] })[];
}

/** A value of LINK_FACTS or LINK_RECORD_FACTS as the facts it holds. */
export function linkFactsOf<Link extends LinkRecord, Transfer extends TransferRecord>({ link, payments }: LinkFactsJson<Link, Transfer>): LinkFacts<Link, Transfer> {
  return {
    link: withDates(link, ['expires_at', 'superseded_at', 'paid_at', 'created_at']),
    payments: payments.map(({ transfers: _transfers, ...p }) => withDates<PaymentRow>(p, ['quote_expires_at', 'accepted_at', 'paid_at', 'created_at'])),
    transfers: payments.flatMap((p) => p.transfers.map((t) => withDates<Transfer>({ payment_id: p.payment_id, ...t } as Jsonified<Transfer>, ['seen_at', 'confirmed_at']))),
  };
}

const factsByRef = (facts: string) => `SELECT (${facts})::text AS facts FROM payment_links l WHERE payment_link_ref = $1`;
const LINK_FACTS_BY_REF = factsByRef(LINK_FACTS);
const LINK_RECORD_FACTS_BY_REF = factsByRef(linkFacts(RECORD_COLUMNS, true));

/**
 * A link's facts in one statement (reads that need no lock), as JSON text; undefined when there is no such link. Text,
 * so that an answer derived from them can be kept with it (services/derived-answers.ts); parseLinkFacts reads it.
 * Without `request`, the link's record in place of its row: for a reader that keeps the request, which never changes.
 */
export async function readLinkFactsText(sql: Sql, ref: string, { request = true } = {}): Promise<string | undefined> {
  return (await one<{ facts: string }>(sql, request ? LINK_FACTS_BY_REF : LINK_RECORD_FACTS_BY_REF, [ref]))?.facts;
}

export const parseLinkFacts = (text: string): LinkFacts => linkFactsOf(JSON.parse(text) as LinkFactsJson);
export const parseLinkRecordFacts = (text: string): LinkFacts<LinkRecord> => linkFactsOf(JSON.parse(text) as LinkFactsJson<LinkRecord>);

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
