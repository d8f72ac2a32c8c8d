// The simulated chains of the embedded sandbox: transactions to addresses, blocks on demand and on a timer. Formats are
// real (addresses, hashes); only the consensus is pretend. Each network is a chain port like a node's, and tells the
// watcher at once when it moves, so a transfer reads as seen before its first block.
import { randomBytes } from 'node:crypto';
import { FAMILIES } from '../../../codecs/families/index.js';
import type { AssetCode } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import type { Database, Sql } from '../../storage/database.js';
import { LOCK_KEYS, lockExclusive } from '../../storage/locks.js';
import type { NetworkConfig } from '../networks.js';
import type { BlockHeader, ChainBlock, ChainPort, ChainTransfer, ChainWallet, PayoutPort, SentTransaction, Signer } from '../port.js';
import { balanceOf, blocksBetween, insertBlocks, insertTransaction, tipOf, transactionByHash, transactionsIn, type SimTransfer } from './storage.js';

export class SimulatedChain implements ChainPort, ChainWallet, PayoutPort {
  readonly #listeners: (() => Promise<void>)[] = [];
  /** Hashes in the network's own notation (its family's): Ethereum's 0x-prefixed, TRON's and Bitcoin's bare hex. */
  readonly #prefix: string;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    readonly network: NetworkConfig,
  ) {
    this.#prefix = FAMILIES[network.family].hashPrefix;
  }

  onChange(listener: () => Promise<void>): void {
    this.#listeners.push(listener);
  }

  async head(): Promise<BlockHeader> {
    const tip = await tipOf(this.db, this.network.id);
    return tip ? { height: tip.height, hash: tip.hash, time: tip.mined_at } : this.#genesis();
  }

  async header(height: number): Promise<BlockHeader | undefined> {
    if (height === 0) return this.#genesis();
    const [block] = await blocksBetween(this.db, this.network.id, height, height);
    return block && { height: block.height, hash: block.hash, time: block.mined_at };
  }

  async blocks(from: number, to: number): Promise<ChainBlock[]> {
    const headers = await blocksBetween(this.db, this.network.id, from - 1, to);
    const transfers = await transactionsIn(this.db, this.network.id, { from, to });
    let parent = from === 1 ? this.#genesis().hash : headers[0]?.hash;
    return headers
      .filter((b) => b.height >= from)
      .map((b) => {
        const block: ChainBlock = {
          height: b.height,
          hash: b.hash,
          parent_hash: parent!,
          time: b.mined_at,
          transfers: transfers.filter((t) => t.block_height === b.height).map(transferOf),
        };
        parent = b.hash;
        return block;
      });
  }

  async pending(): Promise<ChainTransfer[]> {
    return (await transactionsIn(this.db, this.network.id)).map(transferOf);
  }

  async locate(hash: string): Promise<SentTransaction | undefined> {
    const found = await transactionByHash(this.db, this.network.id, hash);
    return found && { height: found.block_height, ok: true };
  }

  balance(asset: AssetCode, address: string): Promise<bigint> {
    return balanceOf(this.db, this.network.id, asset, address);
  }

  /** Sends; the transaction waits for the next block. */
  async send(from: Signer, to: string, asset: AssetCode, amount: bigint): Promise<string> {
    const hash = await this.db.transaction(async (tx) => {
      await lockExclusive(tx, LOCK_KEYS.simulatedSending);
      const balance = await balanceOf(tx, this.network.id, asset, from.address);
      if (balance < amount) throw new InsufficientFunds(balance);
      return this.broadcast(tx, from.address, to, asset, amount);
    });
    await this.#changed();
    return hash;
  }

  /**
   * Puts a transaction in the pool inside the caller's transaction (a refund, with its record), or straight into the
   * tip block (`mined`, the faucet).
   */
  async broadcast(sql: Sql, from: string, to: string, asset: AssetCode, amount: bigint, { mined = false } = {}): Promise<string> {
    const tx_hash = this.#hash();
    const block_height = mined ? ((await tipOf(sql, this.network.id))?.height ?? 0) : null;
    await insertTransaction(sql, { tx_hash, network: this.network.id, asset, from, to, amount, block_height, created_at: this.clock.now() });
    return tx_hash;
  }

  async fund(address: string, asset: AssetCode, amount: bigint): Promise<void> {
    await this.broadcast(this.db, 'faucet', address, asset, amount, { mined: true });
  }

  /** Mines `blocks` blocks now; the first takes every waiting transaction. Returns the new tip. */
  async mine(blocks: number): Promise<number> {
    const tip = await this.db.transaction(async (tx) => {
      await lockExclusive(tx, LOCK_KEYS.chainFactsAndSimulatedMining);
      return this.#mineIn(tx, blocks);
    });
    await this.#changed();
    return tip;
  }

  /** Mines one block when the network's interval has passed since its last; several processes agree through the lock. */
  async mineIfDue(): Promise<boolean> {
    const interval = this.network.source.kind === 'simulated' ? this.network.source.blockIntervalMs : 0;
    if (!interval) return false;
    const mined = await this.db.transaction(async (tx) => {
      await lockExclusive(tx, LOCK_KEYS.chainFactsAndSimulatedMining);
      const last = await tipOf(tx, this.network.id);
      if (last && this.clock.now().getTime() - last.mined_at.getTime() < interval) return false;
      await this.#mineIn(tx, 1);
      return true;
    });
    if (mined) await this.#changed();
    return mined;
  }

  async #mineIn(tx: Sql, count: number): Promise<number> {
    const tip = (await tipOf(tx, this.network.id))?.height ?? 0;
    const blocks = Array.from({ length: count }, (_, i) => ({ height: tip + 1 + i, hash: this.#hash() }));
    await insertBlocks(tx, this.network.id, blocks, this.clock.now());
    return tip + count;
  }

  async #changed(): Promise<void> {
    for (const listener of this.#listeners) await listener();
  }

  #hash(): string {
    return this.#prefix + randomBytes(32).toString('hex');
  }

  /** Height 0: the chain before its first block. */
  #genesis(): BlockHeader {
    return { height: 0, hash: this.#prefix + '0'.repeat(64), time: new Date(0) };
  }
}

/** A send for more than the sender holds; `balance` is what it holds. */
export class InsufficientFunds extends Error {
  constructor(readonly balance: bigint) {
    super(`the sender holds ${balance} atomic units`);
  }
}

const transferOf = (t: SimTransfer): ChainTransfer => ({
  tx_hash: t.tx_hash,
  position: 'call:',
  asset: t.asset,
  from: t.from_address,
  to: t.to_address,
  amount: BigInt(t.amount_atomic),
});
