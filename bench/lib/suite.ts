// What bench/run.ts runs: a suite measures one thing and reports tables. Gateway suites run once per storage.
import type { SuiteResult } from './report.js';
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
 * Runs `fn` against a gateway process on an empty database of `storage`, then stops the process and drops the
 * database whatever happened.
 */
export async function withGateway<T>(
  storage: Storage,
  env: Record<string, string>,
  fn: (gateway: ServerProcess, database: Database) => Promise<T>,
): Promise<T> {
  const database = await storage.fresh();
  try {
    const gateway = await startServer('gateway', { ...database.env, ...env });
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
