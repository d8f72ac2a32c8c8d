// The portal's search at 100,000 links: each thing a customer quotes is looked up through an index of
// migrations/014_search.sql, never by reading every link (how long it takes is the bench's: `npm run bench -- search`,
// on PGlite too). PostgreSQL only: seeding 100,000 orders takes PGlite minutes; the same plans held there when run.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { linkSearch } from '../../src/sandbox/services/merchant/merchant-links.js';
import type { Database, Sql } from '../../src/sandbox/storage/database.js';
import { openDatabase } from '../../src/sandbox/storage/open.js';
import { pageOfLinks } from '../../src/sandbox/storage/link-list.js';
import { migrate } from '../../src/sandbox/storage/migrate.js';
import { SEARCHED, searchTerms, seedSearchOrders } from '../helpers/search-seed.js';

const LINKS = 100_000;
const databaseUrl = process.env.TEST_DATABASE_URL!;

describe(`the portal's search at ${LINKS.toLocaleString('en-US')} links (PostgreSQL)`, () => {
  const schema = `search_${randomBytes(6).toString('hex')}`;
  let db: Database;
  before(async () => {
    db = await openDatabase({ url: databaseUrl, schema });
    await migrate(db);
    await seedSearchOrders(db, LINKS);
  });
  after(async () => {
    await db?.query(`DROP SCHEMA ${schema} CASCADE`);
    await db?.close();
  });

  /** The plan of the list's first page for this search, and what the page holds. */
  async function search(q: string): Promise<{ plan: string; refs: string[] }> {
    const explaining: Sql = { query: async (text, params) => (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params)) as never };
    const plan = ((await pageOfLinks(explaining, SEARCHED.merchantId, {}, linkSearch(q), undefined, 16)) as unknown as { 'QUERY PLAN': string }[])
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    const refs = (await pageOfLinks(db, SEARCHED.merchantId, {}, linkSearch(q), undefined, 16)).map((row) => row.payment_link_ref);
    return { plan, refs };
  }

  it('finds each term through its index, with no table read whole', async () => {
    for (const { what, q, index } of await searchTerms(db)) {
      const { plan, refs } = await search(q);
      assert.deepEqual(refs, [SEARCHED.ref], `${what} (${q}) finds its order alone`);
      assert.ok(plan.includes(index), `${what} (${q}) is looked up in ${index}:\n${plan}`);
      assert.doesNotMatch(plan, /Seq Scan/, `${what} (${q}) reads no table whole:\n${plan}`);
    }
  });
});
