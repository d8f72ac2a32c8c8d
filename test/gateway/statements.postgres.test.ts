// The PostgreSQL store's own promises (src/sandbox/storage/postgres/retries.ts), on a connection cut mid-statement as a restart
// or a failover cuts it: a statement on its own is run again on another connection, a transaction again from BEGIN. And
// the form in which statements reach pg, which is every read's cost.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it, mock } from 'node:test';
import pg from 'pg';
import type { Database } from '../../src/sandbox/storage/database.js';
import { openPostgres } from '../../src/sandbox/storage/postgres.js';

const databaseUrl = process.env.TEST_DATABASE_URL!;

describe('PostgreSQL store: statements', () => {
  const schema = `statements_${randomBytes(6).toString('hex')}`;
  let db: Database;
  let admin: pg.Client;
  before(async () => {
    db = await openPostgres(databaseUrl, { schema });
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
  });
  after(async () => {
    await db?.close();
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.end();
  });

  /** Cuts the connection running a statement with `marker` in its text, once it runs; fails if it never ran. */
  async function cutWhileRunning(marker: string): Promise<void> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      if (Date.now() > deadline) assert.fail(`no running statement with ${marker} to cut within 5 s`);
      const { rows } = await admin.query<{ cut: boolean }>(
        `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()`,
        [`%${marker}%`],
      );
      if (rows.some((r) => r.cut)) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('runs a statement again on another connection when its own is cut', async () => {
    const marker = `cut_statement_${randomBytes(4).toString('hex')}`;
    const answer = db.query<{ one: number }>(`SELECT 1 AS one, pg_sleep(0.3), $1::text AS ${marker}`, [marker]);
    await cutWhileRunning(marker);
    assert.deepEqual((await answer).map((r) => r.one), [1]);
  });

  it('runs a transaction again from BEGIN when its connection is cut', async () => {
    const marker = `cut_transaction_${randomBytes(4).toString('hex')}`;
    let runs = 0;
    const answer = db.transaction(async (tx) => {
      runs++;
      return tx.query<{ one: number }>(`SELECT 1 AS one, pg_sleep(0.3), $1::text AS ${marker}`, [marker]);
    });
    await cutWhileRunning(marker);
    assert.deepEqual((await answer).map((r) => r.one), [1]);
    assert.equal(runs, 2);
  });

  it("hands pg each statement as its own named Query, never a config object pg copies and wraps in promises of its own", async () => {
    const text = `SELECT $1::int + 1 AS two`;
    const calls = mock.method(pg.Client.prototype, 'query');
    try {
      assert.deepEqual(await db.query<{ two: number }>(text, [1]), [{ two: 2 }]);
      await db.transaction((tx) => tx.query(text, [2]));
    } finally {
      calls.mock.restore();
    }
    const handed = calls.mock.calls.map((call) => call.arguments[0] as unknown);
    // BEGIN, COMMIT and ROLLBACK go as plain text, which pg takes without a copy.
    const statements = handed.filter((argument) => typeof argument !== 'string');
    assert.equal(statements.length, 2, `the two statements among ${handed.length} calls`);
    for (const statement of statements) {
      assert.ok(statement instanceof pg.Query, `a pg.Query, not ${JSON.stringify(statement)}`);
      assert.match((statement as { name?: string }).name ?? '', /^s\d+$/, 'prepared by name');
    }
  });

  it("gives a failed statement's error the stack of the code that ran it, not pg's parser's", async () => {
    async function readsOnItsOwn() {
      await db.query(`SELECT $1::int AS n`, ['not a number']);
    }
    async function readsInATransaction() {
      await db.transaction((tx) => tx.query(`SELECT $1::int AS n`, ['not a number']));
    }
    await assert.rejects(readsOnItsOwn(), (error: Error) => (assert.match(error.stack ?? '', /readsOnItsOwn/), assert.equal((error as { code?: string }).code, '22P02'), true));
    await assert.rejects(readsInATransaction(), (error: Error) => (assert.match(error.stack ?? '', /readsInATransaction/), true));
    // The work's own error is not the store's to restate.
    const thrownHere = (): never => {
      throw new Error('refused by the work');
    };
    await assert.rejects(db.transaction(async () => thrownHere()), (error: Error) => (assert.match(error.stack ?? '', /thrownHere/), true));
  });
});
