// Every statement about the simulated chains, and the only place their tables are read or written: blocks per
// network, and transactions (waiting for a block while block_height is null). The gateway sees them only through the
// chain port (simulated-chain.ts), as it sees a node's.
import type { AssetCode, Network } from '../../../contract/index.js';
import { one, type Sql } from '../../storage/database.js';

export interface SimTransaction {
  tx_hash: string;
  network: Network;
  asset: AssetCode;
  from: string;
  to: string;
  amount: bigint;
  /** Mined straight into this block (the faucet); null: waiting for the next block. */
  block_height: number | null;
  created_at: Date;
}

export interface SimBlock {
  height: number;
  hash: string;
  mined_at: Date;
}

export interface SimTransfer {
  tx_hash: string;
  asset: AssetCode;
  from_address: string;
  to_address: string;
  amount_atomic: string;
  block_height: number | null;
}

export async function tipOf(sql: Sql, network: Network): Promise<SimBlock | undefined> {
  return one<SimBlock>(sql, 'SELECT height, hash, mined_at FROM sim_blocks WHERE network = $1 ORDER BY height DESC LIMIT 1', [network]);
}

export async function blocksBetween(sql: Sql, network: Network, from: number, to: number): Promise<SimBlock[]> {
  return sql.query<SimBlock>('SELECT height, hash, mined_at FROM sim_blocks WHERE network = $1 AND height BETWEEN $2 AND $3 ORDER BY height', [network, from, to]);
}

/** The transactions in blocks `from`…`to`, or (without a range) those waiting for a block. */
export async function transactionsIn(sql: Sql, network: Network, range?: { from: number; to: number }): Promise<SimTransfer[]> {
  const columns = 'tx_hash, asset, from_address, to_address, amount_atomic::text AS amount_atomic, block_height';
  return range
    ? sql.query<SimTransfer>(`SELECT ${columns} FROM sim_transactions WHERE network = $1 AND block_height BETWEEN $2 AND $3 ORDER BY seq`, [network, range.from, range.to])
    : sql.query<SimTransfer>(`SELECT ${columns} FROM sim_transactions WHERE network = $1 AND block_height IS NULL ORDER BY seq`, [network]);
}

export async function transactionByHash(sql: Sql, network: Network, hash: string): Promise<SimTransfer | undefined> {
  return one<SimTransfer>(
    sql,
    'SELECT tx_hash, asset, from_address, to_address, amount_atomic::text AS amount_atomic, block_height FROM sim_transactions WHERE network = $1 AND tx_hash = $2',
    [network, hash],
  );
}

export async function insertTransaction(sql: Sql, t: SimTransaction): Promise<void> {
  await sql.query(
    `INSERT INTO sim_transactions (tx_hash, network, asset, from_address, to_address, amount_atomic, block_height, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [t.tx_hash, t.network, t.asset, t.from, t.to, t.amount.toString(), t.block_height, t.created_at],
  );
}

/** New blocks, and every waiting transaction into the first of them. */
export async function insertBlocks(sql: Sql, network: Network, blocks: readonly Omit<SimBlock, 'mined_at'>[], minedAt: Date): Promise<void> {
  await sql.query('INSERT INTO sim_blocks (network, height, hash, mined_at) SELECT $1, height, hash, $4 FROM unnest($2::bigint[], $3::text[]) AS b (height, hash)', [
    network,
    blocks.map((b) => b.height),
    blocks.map((b) => b.hash),
    minedAt,
  ]);
  await sql.query('UPDATE sim_transactions SET block_height = $2 WHERE network = $1 AND block_height IS NULL', [network, blocks[0]!.height]);
}

/** What an address holds of an asset: all it received less all it sent, waiting transactions included. */
export async function balanceOf(sql: Sql, network: Network, asset: AssetCode, address: string): Promise<bigint> {
  const row = await one<{ balance: string }>(
    sql,
    `SELECT (COALESCE(sum(amount_atomic) FILTER (WHERE to_address = $3), 0)
           - COALESCE(sum(amount_atomic) FILTER (WHERE from_address = $3), 0))::text AS balance
     FROM sim_transactions WHERE network = $1 AND asset = $2 AND (to_address = $3 OR from_address = $3)`,
    [network, asset, address],
  );
  return BigInt(row?.balance ?? '0');
}
