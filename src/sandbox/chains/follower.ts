// Follows one network through its chain port: from the gateway's cursor (height and hash) to the chain's tip, a batch
// of blocks at a time, with the transfers still waiting for a block. Before it moves forward it checks that the block
// under its cursor is still the chain's (the next block's parent, or the tip's own hash); when it is not, or the tip is
// below the cursor, it walks back to the last block both agree on, and the facts above it are taken back.
// docs/payment-lifecycle.md, "Reorganisations and outages", says what follows from each.
import { blockHashAt, lowestBlock, paymentAddressesSince, readCursor, type Cursor } from '../storage/chain-facts.js';
import { log } from '../logging.js';
import type { Database } from '../storage/database.js';
import { FAMILIES } from '../../codecs/families/index.js';
import type { BlockHeader, ChainBlock, ChainPort, ChainTransfer } from './port.js';

/** What one step of following found, to record in one transaction. */
export interface ChainStep {
  /** The cursor it started from: the record is refused if another process moved it meanwhile. */
  from: Cursor | undefined;
  /** The blocks above this one left the chain. */
  rewindTo?: { height: number; hash: string };
  /** New blocks, in order, each after the cursor (or the rewind) and its parent. */
  blocks: ChainBlock[];
  /** The tip where following starts, the first time. */
  start?: BlockHeader;
  /** Transfers into the gateway's addresses, in `blocks`, and waiting for a block (undefined: the chain shows none). */
  mined: (ChainTransfer & { block: ChainBlock })[];
  pending: ChainTransfer[] | undefined;
  /** This step reached the tip: the chain was seen in full. */
  atTip: boolean;
}

/** Blocks read and recorded in one step: a node answers a few dozen at once, the simulator any number. */
export const BATCH = { simulated: 1_000, node: 25 } as const;

export class ChainFollower {
  /** The gateway's addresses on this network, in the form a chain may write them, to the form the gateway stores. */
  readonly #watched = new Map<string, string>();
  /** The oldest transaction still running at the last look: addresses it (or a later one) opened are read again. */
  #watchedSince = '0';
  /** Blocks read at once: halved when reading them failed (a batch a node cannot answer in time), regrown as they come. */
  #batch: number;

  constructor(
    private readonly db: Database,
    readonly port: ChainPort,
  ) {
    this.#batch = BATCH[port.network.source.kind];
  }

  /** The next step from the stored cursor. Throws when the chain cannot be seen, or moved while it was read. */
  async step(): Promise<ChainStep> {
    const { network } = this.port;
    // Waiting transfers are read before the tip: one mined after this read is then in the blocks up to the tip.
    const pending = await this.port.pending();
    const head = await this.port.head();
    const from = await readCursor(this.db, network.id);
    const step = async (fields: Partial<ChainStep>): Promise<ChainStep> => {
      // After the chain was read: an address is opened before anyone can pay it, so every address paid in what was
      // read is known by now.
      await this.#refreshWatched();
      const blocks = fields.blocks ?? [];
      return {
        from,
        blocks,
        mined: blocks.flatMap((block) => this.#ours(block.transfers).map((t) => ({ ...t, block }))),
        pending: pending && this.#ours(pending),
        atTip: fields.rewindTo === undefined && (blocks.at(-1)?.height ?? from?.height ?? head.height) >= head.height,
        ...fields,
      };
    };
    if (!from) return step({ start: head });
    if (head.height < from.height || (head.height === from.height && head.hash !== from.hash)) return step({ rewindTo: await this.#ancestor(head, from) });
    if (head.height === from.height) return step({});
    let blocks: ChainBlock[];
    try {
      blocks = await this.port.blocks(from.height + 1, Math.min(head.height, from.height + this.#batch));
    } catch (error) {
      this.#batch = Math.max(1, Math.floor(this.#batch / 2));
      throw error;
    }
    this.#batch = Math.min(BATCH[network.source.kind], this.#batch * 2);
    if (blocks[0]?.parent_hash !== from.hash) return step({ rewindTo: await this.#ancestor(head, from) });
    return step({ blocks });
  }

  /** The highest block that the chain and the gateway's record agree on. */
  async #ancestor(head: BlockHeader, cursor: Cursor): Promise<{ height: number; hash: string }> {
    const { id } = this.port.network;
    const lowest = (await lowestBlock(this.db, id)) ?? cursor.height;
    for (let height = Math.min(head.height, cursor.height); height >= lowest; height--) {
      const stored = await blockHashAt(this.db, id, height);
      const now = await this.port.header(height);
      if (stored !== undefined && now?.hash === stored) return { height, hash: stored };
    }
    // Deeper than anything the gateway recorded: everything it followed is taken back, and followed again.
    log.warn({ network: id, held_blocks: cursor.height - lowest + 1, from: lowest - 1 }, 'chain: a reorganisation deeper than the blocks the gateway holds; following again from an earlier block');
    const below = (await this.port.header(lowest - 1)) ?? head;
    return { height: below.height, hash: below.hash };
  }

  /** Transfers into one of the gateway's addresses, with the address as the gateway wrote it. */
  #ours(transfers: readonly ChainTransfer[]): ChainTransfer[] {
    const ours: ChainTransfer[] = [];
    for (const t of transfers) {
      const to = this.#watched.get(FAMILIES[this.port.network.family].addressKey(t.to));
      if (to !== undefined) ours.push({ ...t, to });
    }
    return ours;
  }

  /** Payment addresses opened since the last look (here or by another process), in whatever order they committed. */
  async #refreshWatched(): Promise<void> {
    const { network } = this.port;
    const { addresses, next } = await paymentAddressesSince(this.db, network.id, this.#watchedSince);
    for (const address of addresses) this.#watched.set(FAMILIES[network.family].addressKey(address), address);
    this.#watchedSince = next;
  }
}
