// The two storages every gateway measurement runs on: PGlite (the default, in the gateway's process) and a
// throwaway PostgreSQL cluster (scripts/postgres.mjs). Each gateway the bench starts gets an empty database.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PGLITE_EXTENSIONS } from '../../src/sandbox/storage/pglite.js';

/** scripts/postgres.mjs is plain JavaScript without declarations: this is its shape. */
interface PostgresScript {
  postgresBin(): string | undefined;
  startPostgres(bin: string): Promise<{ url: string; stop(): void }>;
}

export interface SqlSession {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface Database {
  /** Environment that points a gateway at it (DATABASE_URL or PGLITE_DIR; nothing: PGlite in memory). */
  env: Record<string, string>;
  /** Connections the server has open to this database; undefined for PGlite, which has none. */
  connections(): Promise<number | undefined>;
  /** The bench's own SQL session, to seed rows; PGlite's folder opens only while no server process holds it. */
  open(): Promise<SqlSession>;
  /** A new database with the same rows, for a second server beside the first; nothing may hold this one meanwhile. */
  copy(): Promise<Database>;
  drop(): Promise<void>;
}

export interface Storage {
  name: 'PGlite' | 'PostgreSQL';
  /** An empty database; `reopenable` keeps PGlite on disk, so that after its gateway another process can open or copy it. */
  fresh(options?: { reopenable?: boolean }): Promise<Database>;
}

function pgliteDatabase(dir: string | undefined): Database {
  const folder = (use: string): string => {
    if (!dir) throw new Error(`an in-memory PGlite database lives in its gateway alone: ${use} needs fresh({ reopenable: true })`);
    return dir;
  };
  return {
    env: dir ? { PGLITE_DIR: dir } : ({} as Record<string, string>),
    connections: async () => undefined,
    async open() {
      const db = await PGlite.create({ dataDir: folder('seeding'), extensions: PGLITE_EXTENSIONS });
      return { query: async <T>(text: string, params?: unknown[]) => (await db.query<T>(text, params)).rows, close: () => db.close() };
    },
    async copy() {
      const copied = newFolder();
      cpSync(folder('copying'), copied, { recursive: true });
      return pgliteDatabase(copied);
    },
    async drop() {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

const newFolder = () => mkdtempSync(join(tmpdir(), 'pay-checkout-bench-pglite-'));

export const pglite: Storage = {
  name: 'PGlite',
  fresh: async ({ reopenable = false } = {}) => pgliteDatabase(reopenable ? newFolder() : undefined),
};

/** A PostgreSQL cluster for the whole run, or why there is none. */
export async function startPostgresStorage(): Promise<{ storage: Storage; stop(): void } | { skipped: string }> {
  const script = new URL('../../scripts/postgres.mjs', import.meta.url).href;
  const { postgresBin, startPostgres } = (await import(script)) as PostgresScript;
  const bin = postgresBin();
  if (!bin) return { skipped: 'PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql): PostgreSQL rows skipped.' };
  const cluster = await startPostgres(bin);
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  let count = 0;
  const database = (name: string): Database => {
    const url = new URL(cluster.url);
    url.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: url.href },
      async connections() {
        const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        return rows[0]?.n ?? 0;
      },
      async open() {
        const client = new pg.Client({ connectionString: url.href });
        await client.connect();
        return { query: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[], close: () => client.end() };
      },
      async copy() {
        const copied = `bench_${++count}`;
        await admin.query(`CREATE DATABASE ${copied} TEMPLATE ${name}`);
        return database(copied);
      },
      async drop() {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  };
  const storage: Storage = {
    name: 'PostgreSQL',
    async fresh() {
      const name = `bench_${++count}`;
      await admin.query(`CREATE DATABASE ${name}`);
      return database(name);
    },
  };
  return {
    storage,
    stop() {
      void admin.end();
      cluster.stop();
    },
  };
}
