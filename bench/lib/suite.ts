// What bench/run.ts runs: a suite measures one thing and reports tables. Gateway suites run once per storage.
import type { SuiteResult, Table } from './report.js';
import { startServer, type ServerProcess } from './server-process.js';
import type { Database, Storage } from './storage.js';

export interface BenchContext {
  /** PGlite, and PostgreSQL when installed. */
  storages: Storage[];
}

export interface Suite {
  id: string;
  title: string;
  /** Whether it runs gateways (so needs the storages); PostgreSQL starts only for such suites. */
  gateway: boolean;
  run(context: BenchContext): Promise<SuiteResult>;
}

/**
 * A suite that runs gateways (so PostgreSQL starts for it): `run` gets the notes list, which forEachStorage also writes
 * a failed storage into, and answers its tables.
 */
export function gatewaySuite(suite: {
  id: string;
  title: string;
  run(context: BenchContext, notes: string[]): Promise<Table[]>;
}): Suite {
  return {
    id: suite.id,
    title: suite.title,
    gateway: true,
    async run(context) {
      const notes: string[] = [];
      const tables = await suite.run(context, notes);
      return { tables, notes };
    },
  };
}

/**
 * The limits of one client address raised (docs/security.md, "Limits"): these suites play thousands of customers from
 * this one machine. The http suite starts its gateways with the defaults, since it drives no limited path.
 */
export const FLOOD_LIMITS: Record<string, string> = {
  LIMIT_OPENS_PER_CLIENT_PER_MINUTE: '1000000',
  LIMIT_STREAMS_PER_CLIENT: '1000000',
  LIMIT_STREAMS_PER_LINK: '1000000',
  LIMIT_STREAMS: '1000000',
};

/**
 * Runs `fn` against a gateway process (with FLOOD_LIMITS) on an empty database of `storage`, then stops the process
 * and drops the database whatever happened.
 */
export async function withGateway<T>(
  storage: Storage,
  env: Record<string, string>,
  fn: (gateway: ServerProcess, database: Database) => Promise<T>,
): Promise<T> {
  const database = await storage.fresh();
  try {
    const gateway = await startServer('gateway', { ...database.env, ...FLOOD_LIMITS, ...env });
    try {
      return await fn(gateway, database);
    } finally {
      await gateway.stop();
    }
  } finally {
    await database.drop();
  }
}

/** Runs `fn` on each storage in turn; one that fails is noted (with why) and the next still runs. */
export async function forEachStorage(storages: Storage[], notes: string[], fn: (storage: Storage) => Promise<void>): Promise<void> {
  for (const storage of storages) {
    try {
      await fn(storage);
    } catch (error) {
      notes.push(`FAILED on ${storage.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
