import pg from 'pg';
import { isTransient, type Database, type Row, type Sql } from './database.js';

// int8 holds VND amounts and counts, all below 2^53: read them as numbers, as PGlite does.
// Crypto amounts live in numeric columns and stay strings.
function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} is beyond 2^53`);
  return n;
}
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Attempts of one transaction or statement before its failure is the caller's. */
const ATTEMPTS = 5;
/** Reconnecting the listener: first after this, doubling up to the cap. */
const RECONNECT_MS = 100;
const RECONNECT_MAX_MS = 5_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Backoff with jitter, so processes that failed together do not retry together. */
const backoff = (attempt: number) => pause(Math.min(RECONNECT_MS * 2 ** attempt, RECONNECT_MAX_MS) * (0.5 + Math.random() / 2));

const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `s${statementNames.size}`));
  return name;
}

export async function openPostgres(url: string, schema?: string): Promise<Database> {
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const options = schema ? `-c search_path=${schema}` : undefined;
  const pool = new pg.Pool({ connectionString: url, types, options, max: 10 });
  // An idle connection that the server drops (a restart, a failover, pg_terminate_backend) is an error event on the
  // pool: without a listener it would end the process. The pool replaces the connection on the next query.
  pool.on('error', (error) => console.error('PostgreSQL dropped an idle connection:', error.message));
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);

  // A statement with parameters is prepared once per connection and then only bound: PostgreSQL skips parsing and
  // planning it again. The name is the same for the same text on every connection of the process.
  const prepared = (text: string, params?: readonly unknown[]): pg.QueryConfig => ({ name: params ? statementName(text) : undefined, text, values: params as unknown[] });
  const wrap = (client: pg.PoolClient): Sql => ({
    async query<T extends Row>(text: string, params?: readonly unknown[]) {
      return (await client.query<T>(prepared(text, params))).rows;
    },
  });

  /**
   * A client of the pool, watched while it is out: a connection cut meanwhile is an error event on the client
   * (sometimes more than one: the server's message, then the socket's end), handled for as long as the client lives,
   * or it would end the process. A client that broke is destroyed on release, not returned.
   */
  interface Held {
    client: pg.PoolClient;
    broken: boolean;
    onError(): void;
  }
  function watch(client: pg.PoolClient): Held {
    const held: Held = { client, broken: false, onError: () => (held.broken = true) };
    client.on('error', held.onError);
    return held;
  }
  function release(held: Held, error?: unknown): void {
    if (error !== undefined && isTransient(error)) held.broken = true;
    if (!held.broken) held.client.off('error', held.onError);
    held.client.release(held.broken || undefined);
  }

  async function withClient<T>(work: (client: pg.PoolClient, state: { broken: boolean }) => Promise<T>): Promise<T> {
    const held = watch(await pool.connect());
    let failure: unknown;
    try {
      return await work(held.client, held);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      release(held, failure);
    }
  }

  /**
   * One statement, on a client of its own. On its own it commits or not at all, so one lost with its connection is
   * simply run again. Written out rather than as withClient inside retried: this is every read's path, and each
   * async layer costs a promise per request.
   */
  async function statement<T extends Row>(text: string, params?: readonly unknown[]): Promise<T[]> {
    for (let attempt = 1; ; attempt++) {
      const held = watch(await pool.connect());
      let failure: unknown;
      try {
        return (await held.client.query<T>(prepared(text, params))).rows;
      } catch (error) {
        failure = error;
        if (attempt >= ATTEMPTS || !isTransient(error)) throw error;
      } finally {
        release(held, failure);
      }
      await backoff(attempt);
    }
  }

  /** A statement on its own commits or not at all, so one lost with its connection is simply run again. */
  async function retried<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= ATTEMPTS || !isTransient(error)) throw error;
        await backoff(attempt);
      }
    }
  }

  async function transactionOnce<T>(fn: (tx: Sql) => Promise<T>): Promise<{ result: T } | { retry: unknown }> {
    return withClient(async (client, state) => {
      try {
        // The transaction's id, in the same round trip: if the connection is lost during COMMIT, it tells the outcome.
        const begun = (await client.query('BEGIN; SELECT txid_current()::text AS xid')) as unknown as pg.QueryResult<{ xid: string }>[];
        const xid = begun[1]!.rows[0]!.xid;
        const result = await fn(wrap(client));
        try {
          await client.query('COMMIT');
        } catch (error) {
          // A constraint checked at commit refuses it: the transaction is over, the error is the caller's.
          if (!isTransient(error)) throw error;
          state.broken = true;
          if (await committed(xid)) return { result };
          return { retry: error };
        }
        return { result };
      } catch (error) {
        if (!state.broken) await client.query('ROLLBACK').catch(() => (state.broken = true));
        if (isTransient(error)) return { retry: error };
        throw error;
      }
    });
  }

  /** Whether a transaction whose COMMIT got no answer did commit, asked on another connection once one is up. */
  async function committed(xid: string): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const status = await statement<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [xid]).then(
        (rows) => rows[0]?.status,
        () => undefined,
      );
      if (status === 'committed') return true;
      if (status === 'aborted') return false;
      if (attempt >= ATTEMPTS * 4) throw new Error(`transaction ${xid} is still ${status ?? 'unknown'}: its outcome could not be learnt`);
      await backoff(attempt);
    }
  }

  // One dedicated connection carries every LISTEN of this process; it reconnects when lost.
  const handlers = new Map<string, Set<(payload: string | undefined) => void>>();
  let listener: Promise<pg.Client> | undefined;
  let closing = false;
  function connectListener(attempt = 0): Promise<pg.Client> {
    listener ??= (async () => {
      const client = new pg.Client({ connectionString: url, types, options });
      client.on('notification', (message) => {
        for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      client.on('error', (error) => console.error('PostgreSQL LISTEN connection lost:', error.message));
      client.on('end', () => {
        listener = undefined;
        if (!closing) void reconnectListener();
      });
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return client;
    })().catch(async (error: unknown) => {
      listener = undefined;
      if (closing || attempt >= 30) throw error;
      await backoff(attempt);
      return connectListener(attempt + 1);
    });
    return listener;
  }
  /** Back after a loss: every handler hears that it may have missed notifications. */
  async function reconnectListener(): Promise<void> {
    try {
      await connectListener();
      for (const set of handlers.values()) for (const handler of set) handler(undefined);
    } catch (error) {
      console.error('PostgreSQL LISTEN connection could not be re-established:', (error as Error).message);
    }
  }

  return {
    engine: 'postgres',
    query: statement,
    async transaction(fn) {
      for (let attempt = 1; ; attempt++) {
        const outcome = await transactionOnce(fn);
        if ('result' in outcome) return outcome.result;
        if (attempt >= ATTEMPTS) throw outcome.retry;
        await backoff(attempt);
      }
    },
    async listen(channel, onPayload) {
      let set = handlers.get(channel);
      const isNew = !set;
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(onPayload);
      if (isNew) await retried(async () => (await connectListener()).query(`LISTEN ${pg.escapeIdentifier(channel)}`));
      else await connectListener();
      return async () => {
        set.delete(onPayload);
      };
    },
    async close() {
      closing = true;
      const client = await listener?.catch(() => undefined);
      await client?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
