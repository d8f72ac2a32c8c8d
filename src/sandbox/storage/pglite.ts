import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Row, Sql } from './database.js';
import { lockFolder } from './folder-lock.js';
import { log } from '../logging.js';

/**
 * PGlite has no autovacuum: without fresh statistics the planner keeps taking a grown table for the few rows it held
 * when last analyzed, and picks plans that loop over it. They are refreshed here instead, every `analyzeEveryMs`.
 */
const ANALYZE_EVERY_MS = 5 * 60_000;

export async function openPglite(dataDir?: string, { analyzeEveryMs = ANALYZE_EVERY_MS } = {}): Promise<Database> {
  // PGlite makes its own folder but not the ones above it (`.data/` on a fresh clone).
  if (dataDir) await mkdir(dirname(dataDir), { recursive: true });
  const unlock = dataDir ? await lockFolder(dataDir) : async () => undefined;
  let pg: PGlite;
  try {
    pg = await PGlite.create(dataDir);
  } catch (error) {
    await unlock();
    throw error;
  }
  const wrap = (runner: Pick<PGlite, 'query'>): Sql => ({
    async query<T extends Row>(text: string, params?: readonly unknown[]) {
      return (await runner.query<T>(text, params as unknown[])).rows;
    },
  });
  const analyzing = setInterval(() => {
    pg.query('ANALYZE').catch((error: unknown) => log.error({ err: error }, 'PGlite: ANALYZE failed'));
  }, analyzeEveryMs);
  analyzing.unref();
  return {
    engine: 'pglite',
    ...wrap(pg),
    // PGlite runs one transaction at a time, so concurrent callers are serialized here.
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async listen(channel, onPayload) {
      const unsubscribe = await pg.listen(channel, onPayload);
      return () => unsubscribe();
    },
    async close() {
      clearInterval(analyzing);
      await pg.close();
      await unlock();
    },
  };
}
