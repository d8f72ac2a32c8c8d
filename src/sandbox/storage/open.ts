// Which engine sits behind the storage interface (./database.ts), decided once: a PostgreSQL server for a
// `postgres://` URL, else PGlite; each loaded only when chosen. The database is migrated before it is handed out.
import type { Database, DatabaseOptions } from './database.js';

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const { migrate } = await import('./migrate.js');
  const db = options.url
    ? await (await import('./postgres.js')).openPostgres(options.url, options)
    : await (await import('./pglite.js')).openPglite(options.dataDir, { timed: options.timed, image: options.pgliteImage });
  await migrate(db);
  return db;
}
