// The simulated chains: transactions to addresses, blocks on demand and on a timer, confirmations per network.
// Formats are real (addresses, hashes); only the consensus is pretend.
import { randomBytes } from 'node:crypto';
import { NETWORKS, type AssetCode, type Network } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { insertBlocks, insertTransaction, lastBlockTime, lockExclusive, sentFrom, tipOf, tipsOfAll, balanceOf } from '../storage/chain.js';
import type { Database, Sql } from '../storage/database.js';

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

  tip(sql: Sql, network: Network): Promise<number> {
    return tipOf(sql, network);
  }

  /** Puts a transaction in the mempool (or straight into the tip block, for the faucet). */
  async broadcast(sql: Sql, transfer: Transfer, options: { mined?: boolean } = {}): Promise<string> {
    const tx_hash = txHash(transfer.network);
    const block_height = options.mined ? await tipOf(sql, transfer.network) : null;
    await insertTransaction(sql, { tx_hash, ...transfer, block_height, created_at: this.clock.now() });
    return tx_hash;
  }

  /**
   * Mines `blocks` blocks on one network; the first takes the whole mempool. Returns the new tip. Blocks are mined one
   * process at a time, and never while a decision that depends on which payment settled first is being made.
   */
  async mine(sql: Sql, network: Network, blocks: number): Promise<number> {
    await lockExclusive(sql, CHAIN_LOCK);
    const tip = await tipOf(sql, network);
    await insertBlocks(sql, network, tip + 1, tip + blocks, this.clock.now());
    return tip + blocks;
  }

  /** Mines one block on each network whose interval has passed since its last block; several processes agree through the lock. */
  async mineDue(intervals: Record<Network, number>): Promise<Network[]> {
    return this.db.transaction(async (tx) => {
      await lockExclusive(tx, CHAIN_LOCK);
      const mined: Network[] = [];
      for (const network of NETWORKS) {
        const interval = intervals[network];
        if (!interval) continue;
        const last = await lastBlockTime(tx, network);
        if (last && this.clock.now().getTime() - last.getTime() < interval) continue;
        await this.mine(tx, network, 1);
        mined.push(network);
      }
      return mined;
    });
  }

  /** The tip of every network. */
  async tips(sql: Sql): Promise<Record<Network, number>> {
    const rows = await tipsOfAll(sql);
    return Object.fromEntries(NETWORKS.map((n) => [n, rows.find((r) => r.network === n)?.height ?? 0])) as Record<Network, number>;
  }

  balance(sql: Sql, network: Network, asset: AssetCode, address: string): Promise<bigint> {
    return balanceOf(sql, network, asset, address);
  }

  sentFrom(sql: Sql, network: Network, asset: AssetCode, address: string): Promise<bigint> {
    return sentFrom(sql, network, asset, address);
  }
}
