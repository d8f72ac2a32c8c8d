// The portal's search at 100,000 links (storage/link-list.ts): how long the first page of each thing a customer quotes
// takes to find, as the gateway asks it (the term read as what it may spell, the SQL built, run), beside its floor: the
// same SQL, already built, sent bare on the same connection. Sequential, one search at a time, rounds alternating.
import { randomBytes } from 'node:crypto';
import { linkSearch } from '../../src/sandbox/services/merchant/merchant-links.js';
import type { Database, Sql } from '../../src/sandbox/storage/database.js';
import { openDatabase } from '../../src/sandbox/storage/open.js';
import { pageOfLinks } from '../../src/sandbox/storage/link-list.js';
import { migrate } from '../../src/sandbox/storage/migrate.js';
import { SEARCHED, searchTerms, seedSearchOrders } from '../../test/helpers/search-seed.js';
import { round, summarize, type Table } from '../lib/report.js';
import { forEachStorage, gatewaySuite } from '../lib/suite.js';

const LINKS = 100_000;
const ROUNDS = 20;
const PAGE = 15;

export const searchSuite = gatewaySuite({
  id: 'search',
  title: `Portal search at ${LINKS.toLocaleString('en-US')} links: the gateway's query beside the same SQL bare`,
  async run({ storages }, notes) {
    const table: Table = {
      title: `First page (${PAGE} links) of a search, ms, over ${ROUNDS} rounds of every term`,
      columns: ['storage', 'term', 'gateway p50', 'gateway p99', 'floor p50', 'floor p99', 'p50 ratio'],
      rows: [],
    };
    await forEachStorage(storages, notes, async (storage) => {
      const database = storage.name === 'PostgreSQL' ? await storage.fresh() : undefined;
      const schema = database && `search_${randomBytes(4).toString('hex')}`;
      const db: Database = await openDatabase({ url: database?.env.DATABASE_URL, schema });
      try {
        await migrate(db);
        await seedSearchOrders(db, LINKS);
        const terms = await searchTerms(db);
        const times = new Map(terms.map((t) => [t.what, { gateway: [] as number[], floor: [] as number[] }]));
        // The SQL each term runs, caught once: the floor sends it as it is.
        const built = new Map<string, { text: string; params: readonly unknown[] }>();
        for (const { what, q } of terms) {
          const catching: Sql = {
            async query(text, params = []) {
              built.set(what, { text, params });
              return [];
            },
          };
          await pageOfLinks(catching, SEARCHED.merchantId, {}, linkSearch(q), undefined, PAGE + 1);
        }
        for (let r = 0; r < ROUNDS + 1; r++) {
          for (const { what, q } of terms) {
            let started = performance.now();
            const found = await pageOfLinks(db, SEARCHED.merchantId, {}, linkSearch(q), undefined, PAGE + 1);
            const gateway = performance.now() - started;
            const { text, params } = built.get(what)!;
            started = performance.now();
            const bare = await db.query<{ payment_link_ref: string }>(text, params);
            const floor = performance.now() - started;
            if (found.length !== 1 || bare.length !== 1) notes.push(`${storage.name}, ${what}: found ${found.length} and ${bare.length} links, not 1.`);
            // The first round warms caches and plans up, uncounted.
            if (r > 0) {
              times.get(what)!.gateway.push(gateway);
              times.get(what)!.floor.push(floor);
            }
          }
        }
        for (const { what } of terms) {
          const { gateway, floor } = times.get(what)!;
          const [g, f] = [summarize(gateway), summarize(floor)];
          table.rows.push([storage.name, what, round(g.p50, 2), round(g.p99, 2), round(f.p50, 2), round(f.p99, 2), round(g.p50 / f.p50, 2)]);
        }
      } finally {
        if (schema) await db.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
        await db.close();
        await database?.drop();
      }
    });
    notes.push(
      `${LINKS.toLocaleString('en-US')} paid orders, each with its payment, transfer and refund, all different (test/helpers/search-seed.ts); ` +
        'which index each term uses is asserted by test/gateway/search-plan.postgres.test.ts.',
    );
    return [table];
  },
});
