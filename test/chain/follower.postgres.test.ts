// The follower's view of the gateway's addresses on PostgreSQL, where two processes open payments at once: a payment
// whose transaction commits after a later one's (a later seq) is still watched, and money sent to it is found.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import { ChainFollower } from '../../src/sandbox/chains/follower.js';
import type { BlockHeader, ChainBlock, ChainPort, ChainTransfer } from '../../src/sandbox/chains/port.js';
import { writeCursor } from '../../src/sandbox/storage/chain-facts.js';
import type { Database } from '../../src/sandbox/storage/database.js';
import { openDatabase } from '../../src/sandbox/storage/open.js';
import { sandboxNetworks } from '../helpers/networks.js';

const databaseUrl = process.env.TEST_DATABASE_URL!;
const network = sandboxNetworks.of('TRON');

/** A chain in memory: blocks the test appends, each after the last. */
class ListChain implements ChainPort {
  readonly network = network;
  readonly chain: ChainBlock[] = [{ height: 0, hash: 'h0', parent_hash: '', time: new Date(), transfers: [] }];
  append(transfers: ChainTransfer[]): void {
    const parent = this.chain.at(-1)!;
    this.chain.push({ height: parent.height + 1, hash: `h${parent.height + 1}`, parent_hash: parent.hash, time: new Date(), transfers });
  }
  async head(): Promise<BlockHeader> {
    return this.chain.at(-1)!;
  }
  async header(height: number): Promise<BlockHeader | undefined> {
    return this.chain[height];
  }
  async blocks(from: number, to: number): Promise<ChainBlock[]> {
    return this.chain.slice(from, to + 1);
  }
  async pending(): Promise<ChainTransfer[] | undefined> {
    return undefined;
  }
}

describe('chain follower: the addresses it watches (PostgreSQL)', () => {
  const schema = `follower_${randomBytes(6).toString('hex')}`;
  let db: Database;
  const sessions: pg.Client[] = [];
  before(async () => {
    db = await openDatabase({ url: databaseUrl, schema });
  });
  after(async () => {
    for (const s of sessions) await s.end();
    await db?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db?.close();
  });

  /** A connection of its own, as another gateway process has, where constraints on links are not checked. */
  async function session(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema} -c session_replication_role=replica` });
    await client.connect();
    sessions.push(client);
    return client;
  }
  const openPayment = (client: pg.Client, address: string) =>
    client.query(
      `INSERT INTO payments (payment_id, payment_link_ref, status, asset, network, address, address_index, amount_atomic, amount_vnd, rate,
         quote_expires_at, confirmations_required, created_at)
       VALUES ($1, $1, 'awaiting_payment', 'USDT', 'TRON', $2, nextval('payment_address_index'), 1000000, 26000, '26000', now() + interval '15 minutes', 1, now())`,
      [`pay_${address}`, address],
    );
  const transfer = (to: string): ChainTransfer => ({ tx_hash: `tx_${to}`, position: 'log:0', asset: 'USDT', from: 'TSender', to, amount: 1_000_000n });

  it('finds money sent to a payment whose transaction committed after a later payment was read', async () => {
    const chain = new ListChain();
    const follower = new ChainFollower(db, chain);
    /** One step, its cursor recorded (as services/chains/chain-facts.ts records it): the transfers it found. */
    const follow = async () => {
      const step = await follower.step();
      await writeCursor(db, network.id, step.blocks.at(-1) ?? step.start ?? step.from!);
      return step.mined.map((t) => t.to);
    };
    await follow();
    const [first, second] = [await session(), await session()];
    await first.query('BEGIN');
    await openPayment(first, 'TEarlier');
    await openPayment(second, 'TLater');
    chain.append([transfer('TLater')]);
    assert.deepEqual(await follow(), ['TLater']);
    await first.query('COMMIT');
    chain.append([transfer('TEarlier')]);
    assert.deepEqual(await follow(), ['TEarlier'], 'the payment that committed last is watched');
  });

  it('finds every transfer to an address committed before the step, whatever order payments commit in (property)', async () => {
    const [a, b, c] = [await session(), await session(), await session()];
    const clients = [a, b, c];
    let run = 0;
    // Each session opens payments in a transaction and commits; an address is paid only once its payment committed
    // (the customer sees it after that); after every step, what was paid since the last step is what it found.
    const op = fc.oneof(
      fc.record({ kind: fc.constant('open' as const), session: fc.nat(2) }),
      fc.record({ kind: fc.constant('commit' as const), session: fc.nat(2) }),
      fc.constant({ kind: 'step' as const, session: 0 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        run++;
        const chain = new ListChain();
        const follower = new ChainFollower(db, chain);
        const follow = async () => {
          const step = await follower.step();
          await writeCursor(db, network.id, step.blocks.at(-1) ?? step.start ?? step.from!);
          return step.mined.map((t) => t.to).sort();
        };
        // A run that failed left its transactions open.
        for (const client of clients) await client.query('ROLLBACK');
        await db.query('DELETE FROM chain_cursors');
        await follow();
        const uncommitted: string[][] = [[], [], []];
        let paid: string[] = [];
        for (const [i, { kind, session: k }] of [...ops, { kind: 'commit' as const, session: 0 }, { kind: 'commit' as const, session: 1 }, { kind: 'commit' as const, session: 2 }, { kind: 'step' as const, session: 0 }].entries()) {
          if (kind === 'open') {
            if (!uncommitted[k]!.length) await clients[k]!.query('BEGIN');
            const address = `T${run}_${i}`;
            await openPayment(clients[k]!, address);
            uncommitted[k]!.push(address);
          } else if (kind === 'commit') {
            if (!uncommitted[k]!.length) continue;
            await clients[k]!.query('COMMIT');
            chain.append(uncommitted[k]!.map(transfer));
            paid.push(...uncommitted[k]!);
            uncommitted[k] = [];
          } else {
            assert.deepEqual(await follow(), paid.sort());
            paid = [];
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});
