// Every statement about the chains as the gateway has followed them (migrations/007_chain_facts.sql): the blocks, the
// transfers into its addresses, and a cursor per network. Written only by services/chains/chain-facts.ts, from what a chain
// port showed; read by a link's facts (link-facts.ts).
import type { AssetCode, Network } from '../../contract/index.js';
import { OPEN_PAYMENT_STATUSES } from '../../contract/rules.js';
import type { ChainTransfer } from '../chains/port.js';
import { one, sqlList, type Sql } from './database.js';

export interface Cursor {
  height: number;
  hash: string;
  synced_at: Date | null;
}

export interface BlockRecord {
  height: number;
  hash: string;
  time: Date;
}

/** A transfer of a followed block. */
export interface MinedTransfer extends ChainTransfer {
  height: number;
  block_hash: string;
  block_time: Date;
}

export async function readCursor(sql: Sql, network: Network, { lock = false } = {}): Promise<Cursor | undefined> {
  return one<Cursor>(sql, `SELECT height, hash, synced_at FROM chain_cursors WHERE network = $1 ${lock ? 'FOR UPDATE' : ''}`, [network]);
}

export async function readCursors(sql: Sql): Promise<(Cursor & { network: Network; stale_after_ms: number | null })[]> {
  return sql.query('SELECT network, height, hash, synced_at, stale_after_ms FROM chain_cursors');
}

/** Moves a network's cursor; `synced` (a node's network) says the chain was seen in full at that time. */
export async function writeCursor(sql: Sql, network: Network, block: Pick<BlockRecord, 'height' | 'hash'>, synced?: { at: Date; staleAfterMs: number }): Promise<void> {
  await sql.query(
    `INSERT INTO chain_cursors (network, height, hash, synced_at, stale_after_ms) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (network) DO UPDATE SET height = $2, hash = $3, synced_at = COALESCE($4, chain_cursors.synced_at), stale_after_ms = $5`,
    [network, block.height, block.hash, synced?.at ?? null, synced?.staleAfterMs ?? null],
  );
}

export async function blockHashAt(sql: Sql, network: Network, height: number): Promise<string | undefined> {
  return (await one<{ hash: string }>(sql, 'SELECT hash FROM chain_blocks WHERE network = $1 AND height = $2', [network, height]))?.hash;
}

/** The lowest block the gateway holds of a network: a rewind cannot check below it. */
export async function lowestBlock(sql: Sql, network: Network): Promise<number | undefined> {
  return (await one<{ height: number | null }>(sql, 'SELECT min(height)::bigint AS height FROM chain_blocks WHERE network = $1', [network]))?.height ?? undefined;
}

export async function insertBlocks(sql: Sql, network: Network, blocks: readonly BlockRecord[], recordedAt: Date): Promise<void> {
  if (!blocks.length) return;
  await sql.query(
    `INSERT INTO chain_blocks (network, height, hash, block_time, recorded_at)
     SELECT $1, height, hash, block_time, $5 FROM unnest($2::bigint[], $3::text[], $4::timestamptz[]) AS b (height, hash, block_time)`,
    [network, blocks.map((b) => b.height), blocks.map((b) => b.hash), blocks.map((b) => b.time), recordedAt],
  );
}

/**
 * The blocks above `height` left the chain: they are deleted, and their transfers wait for a block again (a
 * transaction of an orphaned block usually comes back in the new chain, and keeps when it was first seen), or, on a
 * network that shows nothing waiting (`keepWaiting` false: TRON's JSON-RPC), go with them: nothing there could say
 * they wait, or ever drop them, and one that lands again is seen again. Returns the addresses whose transfers moved.
 */
export async function rewindTo(sql: Sql, network: Network, height: number, { keepWaiting }: { keepWaiting: boolean }): Promise<string[]> {
  await sql.query('DELETE FROM chain_blocks WHERE network = $1 AND height > $2', [network, height]);
  const rows = await sql.query<{ to_address: string }>(
    keepWaiting
      ? 'UPDATE chain_transfers SET block_height = NULL, block_hash = NULL WHERE network = $1 AND block_height > $2 RETURNING to_address'
      : 'DELETE FROM chain_transfers WHERE network = $1 AND block_height > $2 RETURNING to_address',
    [network, height],
  );
  return [...new Set(rows.map((r) => r.to_address))];
}

/**
 * Payments with money whose confirmations reach above `height` (in a block above it, or confirmed by one): a rewind
 * to it takes their money out of the chain or some of its confirmations, and their statuses may go back.
 */
export async function paymentsConfirmedAbove(sql: Sql, network: Network, height: number): Promise<{ payment_id: string; payment_link_ref: string; address: string; status: string }[]> {
  return sql.query(
    `SELECT DISTINCT p.payment_id, p.payment_link_ref, p.address, p.status FROM chain_transfers t JOIN payments p ON p.address = t.to_address AND p.network = t.network
     WHERE t.network = $1 AND t.block_height + p.confirmations_required - 1 > $2`,
    [network, height],
  );
}

export async function markReorged(sql: Sql, paymentIds: readonly string[], at: Date): Promise<void> {
  await sql.query('UPDATE payments SET reorged_at = $2 WHERE payment_id = ANY($1::text[])', [paymentIds, at]);
}

const columns = (transfers: readonly ChainTransfer[]) => [
  transfers.map((t) => t.tx_hash),
  transfers.map((t) => t.position),
  transfers.map((t) => t.asset),
  transfers.map((t) => t.from),
  transfers.map((t) => t.to),
  transfers.map((t) => t.amount.toString()),
];

/**
 * Transfers of followed blocks. A transaction seen before while it waited for a block is replaced by what its block
 * says (a token transfer's position is known only then), and keeps when it was first seen. One never seen before came
 * at its block's time, but not before `knownUntil` (when the gateway last saw the chain in full without it: a block's
 * time is whole seconds, and the miner's say) nor after now.
 */
export async function recordMined(sql: Sql, network: Network, transfers: readonly MinedTransfer[], now: Date, knownUntil: Date | null): Promise<void> {
  if (!transfers.length) return;
  const waited = await sql.query<{ tx_hash: string; seen_at: Date }>(
    'DELETE FROM chain_transfers WHERE network = $1 AND block_height IS NULL AND tx_hash = ANY($2::text[]) RETURNING tx_hash, seen_at',
    [network, [...new Set(transfers.map((t) => t.tx_hash))]],
  );
  const firstSeen = new Map<string, number>();
  for (const { tx_hash, seen_at } of waited) firstSeen.set(tx_hash, Math.min(firstSeen.get(tx_hash) ?? Infinity, seen_at.getTime()));
  const arrived = (t: MinedTransfer) => Math.max(t.block_time.getTime(), knownUntil?.getTime() ?? -Infinity);
  const seenAt = transfers.map((t) => new Date(Math.min(firstSeen.get(t.tx_hash) ?? arrived(t), now.getTime())));
  await sql.query(
    `INSERT INTO chain_transfers (network, tx_hash, position, asset, from_address, to_address, amount_atomic, block_height, block_hash, seen_at)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::bigint[], $9::text[], $10::timestamptz[])
     ON CONFLICT (network, tx_hash, position) DO UPDATE SET block_height = EXCLUDED.block_height, block_hash = EXCLUDED.block_hash,
       seen_at = LEAST(chain_transfers.seen_at, EXCLUDED.seen_at)`,
    [network, ...columns(transfers), transfers.map((t) => t.height), transfers.map((t) => t.block_hash), seenAt],
  );
}

/** Transfers waiting for a block, seen now unless seen before. Returns the addresses of those new to the gateway. */
export async function recordPending(sql: Sql, network: Network, transfers: readonly ChainTransfer[], now: Date): Promise<string[]> {
  if (!transfers.length) return [];
  // A transaction already recorded in a block is not waiting for one, whatever a slow node still says.
  const rows = await sql.query<{ to_address: string }>(
    `INSERT INTO chain_transfers (network, tx_hash, position, asset, from_address, to_address, amount_atomic, seen_at)
     SELECT $1, u.*, $8 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[])
       AS u (tx_hash, position, asset, from_address, to_address, amount_atomic)
     WHERE NOT EXISTS (SELECT 1 FROM chain_transfers t WHERE t.network = $1 AND t.tx_hash = u.tx_hash AND t.block_height IS NOT NULL)
     ON CONFLICT (network, tx_hash, position) DO NOTHING RETURNING to_address`,
    [network, ...columns(transfers), now],
  );
  return [...new Set(rows.map((r) => r.to_address))];
}

/** The transfers recorded as waiting for a block, as `tx_hash position`. */
export async function pendingKeys(sql: Sql, network: Network): Promise<Set<string>> {
  const rows = await sql.query<{ key: string }>("SELECT tx_hash || ' ' || position AS key FROM chain_transfers WHERE network = $1 AND block_height IS NULL", [network]);
  return new Set(rows.map((r) => r.key));
}

/** The chain was seen in full now, and nothing else changed. */
export async function markSynced(sql: Sql, network: Network, at: Date, staleAfterMs: number): Promise<void> {
  await sql.query('UPDATE chain_cursors SET synced_at = $2, stale_after_ms = $3 WHERE network = $1', [network, at, staleAfterMs]);
}

/** Transfers that waited for a block and that the chain no longer shows (dropped, or replaced): no longer facts. */
export async function dropPendingExcept(sql: Sql, network: Network, txHashes: readonly string[]): Promise<string[]> {
  const rows = await sql.query<{ to_address: string }>(
    'DELETE FROM chain_transfers WHERE network = $1 AND block_height IS NULL AND NOT (tx_hash = ANY($2::text[])) RETURNING to_address',
    [network, txHashes],
  );
  return [...new Set(rows.map((r) => r.to_address))];
}

/**
 * Money moved at these addresses: their payments are marked unsettled in the same transaction, so a gateway that dies
 * before reconciling finds them on start. Taking the payments' row locks also orders the record after any
 * reconciliation under way, so a transfer is never seen "before" a decision already made about its payment.
 */
export async function markUnsettledAt(sql: Sql, network: Network, addresses: readonly string[]): Promise<void> {
  if (!addresses.length) return;
  await sql.query('UPDATE payments SET unsettled = true WHERE network = $1 AND address = ANY($2::text[])', [network, addresses]);
}

/** The links with a payment at one of these addresses. */
export async function linksAtAddresses(sql: Sql, network: Network, addresses: readonly string[]): Promise<string[]> {
  if (!addresses.length) return [];
  const rows = await sql.query<{ payment_link_ref: string }>('SELECT DISTINCT payment_link_ref FROM payments WHERE network = $1 AND address = ANY($2::text[])', [
    network,
    addresses,
  ]);
  return rows.map((r) => r.payment_link_ref);
}

/**
 * The payment addresses of a network opened by transactions from `since` on (a transaction id; '0' for all), and the
 * oldest transaction still running when they were read: the next read starts there, so a payment committed after a
 * later one is still read (migrations/016_payment_opened_xid.sql).
 */
export async function paymentAddressesSince(sql: Sql, network: Network, since: string): Promise<{ addresses: string[]; next: string }> {
  // One statement, one snapshot: its xmin bounds what these rows could not yet show.
  const rows = await sql.query<{ next: string; address: string | null }>(
    `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS next, p.address
       FROM (SELECT 1) AS snapshot LEFT JOIN payments p ON p.network = $1 AND p.opened_xid >= $2::xid8`,
    [network, since],
  );
  return { addresses: rows.flatMap((r) => (r.address === null ? [] : [r.address])), next: rows[0]!.next };
}

/** An open payment's address, for the watcher's cross-check (services/chains/cross-check.ts). */
export interface OpenAddress {
  /** The payment's creation order: the next round starts after the last one checked. */
  seq: number;
  address: string;
  opened_at: Date;
}

/** At most `limit` open payments of a network, in creation order after `afterSeq`. */
export async function openAddressesAfter(sql: Sql, network: Network, afterSeq: number, limit: number): Promise<OpenAddress[]> {
  return sql.query<OpenAddress>(
    `SELECT seq, address, created_at AS opened_at FROM payments WHERE network = $1 AND status IN ${sqlList(OPEN_PAYMENT_STATUSES)} AND seq > $2
     ORDER BY seq LIMIT $3`,
    [network, afterSeq, limit],
  );
}

/** What the gateway recorded as received in followed blocks, per address, of one asset. */
export async function receivedAt(sql: Sql, network: Network, asset: AssetCode, addresses: readonly string[]): Promise<Map<string, bigint>> {
  const rows = await sql.query<{ to_address: string; received: string }>(
    `SELECT to_address, sum(amount_atomic)::text AS received FROM chain_transfers
     WHERE network = $1 AND asset = $2 AND to_address = ANY($3::text[]) AND block_height IS NOT NULL GROUP BY to_address`,
    [network, asset, addresses],
  );
  return new Map(rows.map((r) => [r.to_address, BigInt(r.received)]));
}

/** The lowest block the gateway recorded at or after `at`: no transfer to an address opened then is in one below. */
export async function firstBlockRecordedSince(sql: Sql, network: Network, at: Date): Promise<number | undefined> {
  return (await one<{ height: number | null }>(sql, 'SELECT min(height)::bigint AS height FROM chain_blocks WHERE network = $1 AND recorded_at >= $2', [network, at]))?.height ?? undefined;
}

/** Which of these blocks the gateway holds, by height, with the hash it holds. */
export async function blockHashesAt(sql: Sql, network: Network, heights: readonly number[]): Promise<Map<number, string>> {
  const rows = await sql.query<{ height: number; hash: string }>('SELECT height, hash FROM chain_blocks WHERE network = $1 AND height = ANY($2::bigint[])', [network, heights]);
  return new Map(rows.map((r) => [r.height, r.hash]));
}

/** The transfers of these transactions the gateway recorded, as `tx_hash position`. */
export async function recordedKeys(sql: Sql, network: Network, txHashes: readonly string[]): Promise<Set<string>> {
  const rows = await sql.query<{ key: string }>("SELECT tx_hash || ' ' || position AS key FROM chain_transfers WHERE network = $1 AND tx_hash = ANY($2::text[])", [network, txHashes]);
  return new Set(rows.map((r) => r.key));
}

/** A transfer into a payment's address with where the chain put it, for the events that name it (webhooks/outbox.ts). */
export interface TransferFact {
  network: Network;
  asset: string;
  tx_hash: string;
  position: string;
  amount_atomic: string;
  block_height: number | null;
  block_hash: string | null;
  /** Counted from the network's cursor (tip − height + 1); 0 while waiting for a block. */
  confirmations: number;
}

/** The transfers into each payment's address, in the order the gateway saw them. */
export async function transferFactsOf(sql: Sql, paymentIds: readonly string[]): Promise<Map<string, TransferFact[]>> {
  const facts = new Map<string, TransferFact[]>(paymentIds.map((id) => [id, []]));
  if (!paymentIds.length) return facts;
  const rows = await sql.query<TransferFact & { payment_id: string; block_height: string | null }>(
    `SELECT p.payment_id, t.network, t.asset, t.tx_hash, t.position, t.amount_atomic::text AS amount_atomic, t.block_height::text AS block_height, t.block_hash,
       CASE WHEN t.block_height IS NULL THEN 0 ELSE c.height - t.block_height + 1 END::int AS confirmations
     FROM payments p JOIN chain_transfers t ON t.to_address = p.address AND t.network = p.network LEFT JOIN chain_cursors c ON c.network = t.network
     WHERE p.payment_id = ANY($1::text[]) ORDER BY t.seq`,
    [paymentIds],
  );
  for (const { payment_id, block_height, ...fact } of rows) facts.get(payment_id)!.push({ ...fact, block_height: block_height === null ? null : Number(block_height) });
  return facts;
}
