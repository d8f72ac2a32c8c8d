import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Database, Row, Sql, Timed } from './database.js';
import { lockFolder } from './folder-lock.js';
import { log } from '../logging.js';

/**
 * PGlite has no autovacuum: without fresh statistics the planner keeps taking a grown table for the few rows it held
 * when last analyzed, and picks plans that loop over it. They are refreshed here instead, every `analyzeEveryMs`.
 */
const ANALYZE_EVERY_MS = 5 * 60_000;

/** The extensions the migrations create (the search's trigram indexes): whoever opens the gateway's folder loads them. */
export const PGLITE_EXTENSIONS: PGliteOptions['extensions'] = { pg_trgm };

export interface PgliteOptions {
  analyzeEveryMs?: number;
  timed?: Timed;
  /**
   * An image of a data folder (`image()` of another PGlite database) to start from instead of an empty one: PGlite's
   * initdb takes seconds, loading a migrated image a fraction of that (tests start every gateway from one).
   */
  image?: Blob;
}

export interface PgliteDatabase extends Database {
  /** The data folder as it stands, for `PgliteOptions.image`. */
  image(): Promise<Blob>;
}

export async function openPglite(dataDir?: string, { analyzeEveryMs = ANALYZE_EVERY_MS, timed, image }: PgliteOptions = {}): Promise<PgliteDatabase> {
  // PGlite makes its own folder but not the ones above it (`.data/` on a fresh clone).
  if (dataDir) await mkdir(dirname(dataDir), { recursive: true });
  const unlock = dataDir ? await lockFolder(dataDir) : async () => undefined;
  let pg: PGlite;
  try {
    pg = await PGlite.create({ dataDir, loadDataDir: image, extensions: PGLITE_EXTENSIONS });
  } catch (error) {
    await unlock();
    throw error;
  }
  const wrap = (runner: Pick<PGlite, 'query'>): Sql => ({
    async query<T extends Row>(text: string, params?: readonly unknown[]) {
      return (await runner.query<T>(text, params as unknown[])).rows;
    },
  });
  /** A statement on its own, timed for the metrics. */
  async function statement<T extends Row>(text: string, params?: readonly unknown[]): Promise<T[]> {
    const started = timed && performance.now();
    const rows = (await pg.query<T>(text, params as unknown[])).rows;
    if (started) timed!('statement', (performance.now() - started) / 1000);
    return rows;
  }
  const analyzing = setInterval(() => {
    pg.query('ANALYZE').catch((error: unknown) => log.error({ err: error }, 'PGlite: ANALYZE failed'));
  }, analyzeEveryMs);
  analyzing.unref();
  return {
    engine: 'pglite',
    query: statement,
    // PGlite runs one transaction at a time, so concurrent callers are serialized here.
    async transaction(fn) {
      const started = timed && performance.now();
      const result = await pg.transaction((tx) => fn(wrap(tx)));
      if (started) timed!('transaction', (performance.now() - started) / 1000);
      return result;
    },
    async listen(channel, onPayload) {
      const unsubscribe = await pg.listen(channel, onPayload);
      return () => unsubscribe();
    },
    image: () => pg.dumpDataDir('none'),
    async close() {
      clearInterval(analyzing);
      await pg.close();
      await unlock();
    },
  };
}
