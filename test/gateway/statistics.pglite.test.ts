// PGlite has no autovacuum: the gateway refreshes the planner's statistics itself, so a table that grew is planned
// as it is now, not as it was when last analyzed (a stale plan made webhook claims take seconds on a backlog).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/sandbox/storage/database.js';
import { migrate } from '../../src/sandbox/storage/migrate.js';
import { openPglite } from '../../src/sandbox/storage/pglite.js';

describe('PGlite statistics', () => {
  let db: Database;
  before(async () => {
    db = await openPglite(undefined, { analyzeEveryMs: 100 });
    await migrate(db);
  });
  after(() => db.close());

  it('are refreshed as tables grow, with no statement of the gateway asking', async () => {
    await db.query(`INSERT INTO chain_blocks (network, height, hash, block_time, recorded_at) SELECT 'TRON', h, md5(h::text), now(), now() FROM generate_series(1, 2000) h`);
    const estimate = async () => (await db.query<{ rows: number }>(`SELECT reltuples::int AS rows FROM pg_class WHERE relname = 'chain_blocks'`))[0]!.rows;
    const deadline = Date.now() + 10_000;
    while ((await estimate()) < 2000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await estimate(), 2000);
  });
});
