// The simulated chains: transactions to addresses, blocks on demand and on a timer, confirmations per network.
// Formats are real (addresses, hashes); only the consensus is pretend.
import { randomBytes } from 'node:crypto';
import { NETWORKS, type AssetCode, type Network } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { one, type Database, type Sql } from '../storage/database.js';

export interface Transfer {
  network: Network;
  asset: AssetCode;
  from: string;
  to: string;
  amount: bigint;
}

/**
 * Blocks are mined under this advisory lock; decisions that depend on which payment settled first (accepting a held
 * payment, replacing an expired link) hold its shared form, so no block lands while they decide.
 */
export const CHAIN_LOCK = 7310002;

/** A hash in the network's own notation: Ethereum's 0x-prefixed, TRON's and Bitcoin's bare hex. */
function txHash(network: Network): string {
  const hex = randomBytes(32).toString('hex');
  return network === 'ETHEREUM' ? `0x${hex}` : hex;
}

export class Chain {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async tip(sql: Sql, network: Network): Promise<number> {
    const row = await one<{ height: number }>(sql, 'SELECT COALESCE(max(height), 0)::bigint AS height FROM chain_blocks WHERE network = $1', [network]);
    return row?.height ?? 0;
  }

  /** Puts a transaction in the mempool (or straight into the tip block, for the faucet). */
  async broadcast(sql: Sql, transfer: Transfer, options: { mined?: boolean } = {}): Promise<string> {
    const hash = txHash(transfer.network);
    const height = options.mined ? await this.tip(sql, transfer.network) : null;
    await sql.query(
      `INSERT INTO chain_transactions (tx_hash, network, asset, from_address, to_address, amount_atomic, block_height, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [hash, transfer.network, transfer.asset, transfer.from, transfer.to, transfer.amount.toString(), height, this.clock.now()],
    );
    return hash;
  }

  /**
   * Mines `blocks` blocks on one network; the first takes the whole mempool. Returns the new tip. Blocks are mined one
   * process at a time, and never while a decision that depends on which payment settled first is being made.
   */
  async mine(sql: Sql, network: Network, blocks: number): Promise<number> {
    await sql.query('SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK]);
    const tip = await this.tip(sql, network);
    await sql.query(
      'INSERT INTO chain_blocks (network, height, mined_at) SELECT $1, height, $4 FROM generate_series($2::bigint, $3::bigint) AS height',
      [network, tip + 1, tip + blocks, this.clock.now()],
    );
    await sql.query('UPDATE chain_transactions SET block_height = $2 WHERE network = $1 AND block_height IS NULL', [network, tip + 1]);
    return tip + blocks;
  }

  /** Mines one block on each network whose interval has passed since its last block; several processes agree through the lock. */
  async mineDue(intervals: Record<Network, number>): Promise<Network[]> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK]);
      const mined: Network[] = [];
      for (const network of NETWORKS) {
        const interval = intervals[network];
        if (!interval) continue;
        const last = await one<{ mined_at: Date }>(tx, 'SELECT mined_at FROM chain_blocks WHERE network = $1 ORDER BY height DESC LIMIT 1', [network]);
        if (last?.mined_at && this.clock.now().getTime() - last.mined_at.getTime() < interval) continue;
        await this.mine(tx, network, 1);
        mined.push(network);
      }
      return mined;
    });
  }

  /** The tip of every network. */
  async tips(sql: Sql): Promise<Record<Network, number>> {
    const rows = await sql.query<{ network: Network; height: number }>('SELECT network, max(height)::bigint AS height FROM chain_blocks GROUP BY network');
    return Object.fromEntries(NETWORKS.map((n) => [n, rows.find((r) => r.network === n)?.height ?? 0])) as Record<Network, number>;
  }

  /** What an address holds of an asset: all it received less all it sent, the mempool included. */
  async balance(sql: Sql, network: Network, asset: AssetCode, address: string): Promise<bigint> {
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
  async sentFrom(sql: Sql, network: Network, asset: AssetCode, address: string): Promise<bigint> {
    const row = await one<{ sent: string }>(
      sql,
      'SELECT COALESCE(sum(amount_atomic), 0)::text AS sent FROM chain_transactions WHERE network = $1 AND asset = $2 AND from_address = $3',
      [network, asset, address],
    );
    return BigInt(row?.sent ?? '0');
  }
}
