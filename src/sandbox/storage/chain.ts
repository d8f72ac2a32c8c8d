// Every statement about the simulated chains: blocks per network, and transactions (in the mempool while
// block_height is null).
import type { AssetCode, Network } from '../../contract/index.js';
import { one, type Sql } from './database.js';

export interface NewChainTransaction {
  tx_hash: string;
  network: Network;
  asset: AssetCode;
  from: string;
  to: string;
  amount: bigint;
  /** Mined straight into this block (the faucet); null: the mempool. */
  block_height: number | null;
  created_at: Date;
}

export async function tipOf(sql: Sql, network: Network): Promise<number> {
  const row = await one<{ height: number }>(sql, 'SELECT COALESCE(max(height), 0)::bigint AS height FROM chain_blocks WHERE network = $1', [network]);
  return row?.height ?? 0;
}

export async function tipsOfAll(sql: Sql): Promise<{ network: Network; height: number }[]> {
  return sql.query('SELECT network, max(height)::bigint AS height FROM chain_blocks GROUP BY network');
}

export async function lastBlockTime(sql: Sql, network: Network): Promise<Date | undefined> {
  return (await one<{ mined_at: Date }>(sql, 'SELECT mined_at FROM chain_blocks WHERE network = $1 ORDER BY height DESC LIMIT 1', [network]))?.mined_at;
}

export async function insertTransaction(sql: Sql, t: NewChainTransaction): Promise<void> {
  await sql.query(
    `INSERT INTO chain_transactions (tx_hash, network, asset, from_address, to_address, amount_atomic, block_height, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [t.tx_hash, t.network, t.asset, t.from, t.to, t.amount.toString(), t.block_height, t.created_at],
  );
}

/** Blocks `from`…`to` of a network, and the whole mempool into the first of them. */
export async function insertBlocks(sql: Sql, network: Network, from: number, to: number, minedAt: Date): Promise<void> {
  await sql.query('INSERT INTO chain_blocks (network, height, mined_at) SELECT $1, height, $4 FROM generate_series($2::bigint, $3::bigint) AS height', [
    network,
    from,
    to,
    minedAt,
  ]);
  await sql.query('UPDATE chain_transactions SET block_height = $2 WHERE network = $1 AND block_height IS NULL', [network, from]);
}

/** What an address holds of an asset: all it received less all it sent, the mempool included. */
export async function balanceOf(sql: Sql, network: Network, asset: AssetCode, address: string): Promise<bigint> {
  const row = await one<{ balance: string }>(
    sql,
    `SELECT (COALESCE(sum(amount_atomic) FILTER (WHERE to_address = $3), 0)
           - COALESCE(sum(amount_atomic) FILTER (WHERE from_address = $3), 0))::text AS balance
     FROM chain_transactions WHERE network = $1 AND asset = $2 AND (to_address = $3 OR from_address = $3)`,
    [network, asset, address],
  );
  return BigInt(row?.balance ?? '0');
}

/** All an address has sent of an asset, the mempool included. */
export async function sentFrom(sql: Sql, network: Network, asset: AssetCode, address: string): Promise<bigint> {
  const row = await one<{ sent: string }>(
    sql,
    'SELECT COALESCE(sum(amount_atomic), 0)::text AS sent FROM chain_transactions WHERE network = $1 AND asset = $2 AND from_address = $3',
    [network, asset, address],
  );
  return BigInt(row?.sent ?? '0');
}

/** Advisory locks: taken in a transaction, released with it. */
export async function lockExclusive(sql: Sql, key: number): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock($1)', [key]);
}

export async function lockShared(sql: Sql, key: number): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock_shared($1)', [key]);
}
