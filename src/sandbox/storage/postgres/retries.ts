// Statements and transactions of the PostgreSQL store (../postgres.ts) on clients of its pool, run again when they meet
// a lost connection, a deadlock or a server that refuses writes; a transaction whose COMMIT got no answer is resolved
// with txid_status, asked only of the server it ran on.
import pg from 'pg';
import { isTransient, type Database, type Row, type Sql, type Timed } from '../database.js';

/** Attempts of one transaction or statement before its failure is the caller's. */
const ATTEMPTS = 5;
/** Reconnecting: first after this, doubling up to the cap, each wait jittered. */
const RECONNECT_MS = 100;
const RECONNECT_MAX_MS = 3_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Backoff with jitter, so processes that failed together do not retry together. */
export const backoff = (attempt: number) => pause(Math.min(RECONNECT_MS * 2 ** attempt, RECONNECT_MAX_MS) * (0.5 + Math.random() / 2));

const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `s${statementNames.size}`));
  return name;
}

/** SQLSTATE transaction_resolution_unknown: a COMMIT went unanswered and the server that could tell is gone. */
const OUTCOME_UNKNOWN = '08007';
/** A transaction's outcome, and whether other sessions see it (a commit shows only once the synchronous standby has it). */
const OUTCOME_QUERY = 'SELECT txid_status($1::bigint) AS status, txid_visible_in_snapshot($1::bigint, txid_current_snapshot()) AS visible';

export interface RetryOptions {
  /** Told how long each statement and transaction took, in seconds. */
  timed?: Timed;
  /** The timeline of the server a client reached (hosts.ts): only that server can tell a transaction's outcome. */
  serverOf(client: pg.Client): string | undefined;
  /** Told of every statement or transaction that failed, with its client, before the client goes back to the pool. */
  failed(client: pg.PoolClient, error: unknown): void;
}

export function retrying(pool: pg.Pool, { timed, serverOf, failed }: RetryOptions): Pick<Database, 'query' | 'transaction'> {
  // A statement with parameters is prepared once per connection and then only bound: PostgreSQL skips parsing and
  // planning it again. The name is the same for the same text on every connection of the process. It goes to pg as its
  // own Query with a callback: given a config object instead, pg copies it property by property and wraps the answer
  // in two promises of its own (2% of the gateway's CPU on the checkout view).
  const run = <T extends Row>(client: pg.ClientBase, text: string, params?: readonly unknown[]) =>
    new Promise<T[]>((resolve, reject) => {
      const query = new pg.Query<T>(text, params as unknown[] | undefined, (error, result) => (error ? reject(error) : resolve(result.rows)));
      if (params) (query as { name?: string }).name = statementName(text);
      client.query(query);
    });
  const wrap = (client: pg.PoolClient): Sql => ({ query: (text, params) => run(client, text, params) });
  /**
   * The server's refusal of a statement comes with the stack of pg's parser; captured again where the store catches it
   * (after an await, so with the callers awaiting it), it leads back to the code that ran the statement, as pg's
   * promises did. Any other error keeps its own: one thrown by a transaction's work points where it was thrown.
   */
  const withCallersStack = (error: unknown): void => {
    if (error instanceof pg.DatabaseError) Error.captureStackTrace(error);
  };

  // A connection cut while its client is out of the pool is an error event on the client (sometimes more than one: the
  // server's message, then the socket's end), which must be handled for as long as the client lives, or it would end
  // the process. One listener per client, from its first time out on, marks it cut (one added and removed per statement
  // cost every read a closure and two listener changes); a client marked cut is destroyed on release, not returned.
  const cut = new WeakMap<pg.ClientBase, boolean>();
  const watched = (client: pg.PoolClient): pg.PoolClient => {
    if (!cut.has(client)) {
      cut.set(client, false);
      client.on('error', () => cut.set(client, true));
    }
    return client;
  };

  function release(client: pg.PoolClient, error?: unknown, broken = false): void {
    if (error !== undefined) {
      if (isTransient(error)) broken = true;
      failed(client, error);
    }
    client.release(broken || cut.get(client) || undefined);
  }

  async function withClient<T>(work: (client: pg.PoolClient, state: { broken: boolean }) => Promise<T>): Promise<T> {
    const client = watched(await pool.connect());
    const state = { broken: false };
    let failure: unknown;
    try {
      return await work(client, state);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      release(client, failure, state.broken);
    }
  }

  /**
   * One statement, on a client of its own. On its own it commits or not at all, so one lost with its connection is
   * simply run again. Written out rather than as withClient inside a retry helper: this is every read's path, and each
   * async layer costs a promise per request.
   */
  async function statement<T extends Row>(text: string, params?: readonly unknown[]): Promise<T[]> {
    const started = timed && performance.now();
    for (let attempt = 1; ; attempt++) {
      const client = watched(await pool.connect());
      let failure: unknown;
      try {
        const rows = await run<T>(client, text, params);
        if (started) timed!('statement', (performance.now() - started) / 1000);
        return rows;
      } catch (error) {
        failure = error;
        withCallersStack(error);
        if (attempt >= ATTEMPTS || !isTransient(error)) throw error;
      } finally {
        release(client, failure);
      }
      await backoff(attempt);
    }
  }

  async function transactionOnce<T>(fn: (tx: Sql) => Promise<T>): Promise<{ result: T } | { retry: unknown }> {
    return withClient(async (client, state) => {
      let xid: string;
      let result: T;
      try {
        // The transaction's id, in the same round trip: if the connection is lost during COMMIT, it tells the outcome.
        const begun = (await client.query('BEGIN; SELECT txid_current()::text AS xid')) as unknown as pg.QueryResult<{ xid: string }>[];
        xid = begun[1]!.rows[0]!.xid;
        result = await fn(wrap(client));
      } catch (error) {
        withCallersStack(error);
        if (!state.broken && !cut.get(client)) await client.query('ROLLBACK').catch(() => (state.broken = true));
        if (isTransient(error)) return { retry: error };
        throw error;
      }
      try {
        await client.query('COMMIT');
        return { result };
      } catch (error) {
        // A constraint checked at commit refuses it: the transaction is over, the error is the caller's.
        if (!isTransient(error)) throw error;
        state.broken = true;
        return (await committed(xid, serverOf(client))) ? { result } : { retry: error };
      }
    });
  }

  /**
   * Whether a transaction whose COMMIT got no answer did commit, asked on another connection once one is up. Only the
   * server it ran on (its timeline) can tell: after a failover the new primary reuses transaction ids, so there the
   * outcome is unknown (08007) and the caller answers that, never runs the work again.
   */
  async function committed(xid: string, server: string | undefined): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      let status: string | null | undefined;
      try {
        status = await withClient(async (client) => {
          if (serverOf(client) !== server) {
            throw Object.assign(new Error(`transaction ${xid} may or may not have committed: the server it ran on is no longer the primary`), { code: OUTCOME_UNKNOWN });
          }
          const [outcome] = await run<{ status: string | null; visible: boolean }>(client, OUTCOME_QUERY, [xid]);
          // Committed, but not yet visible: still waiting for the synchronous standby, so not yet durable.
          return outcome?.status === 'committed' && !outcome.visible ? 'in progress' : outcome?.status;
        });
      } catch (error) {
        if ((error as { code?: unknown }).code === OUTCOME_UNKNOWN) throw error;
      }
      if (status === 'committed') return true;
      if (status === 'aborted') return false;
      if (attempt >= ATTEMPTS * 4) {
        throw Object.assign(new Error(`transaction ${xid} is still ${status ?? 'unknown'}: its outcome could not be learnt`), { code: OUTCOME_UNKNOWN });
      }
      await backoff(attempt);
    }
  }

  return {
    query: statement,
    async transaction(fn) {
      const started = timed && performance.now();
      for (let attempt = 1; ; attempt++) {
        const outcome = await transactionOnce(fn);
        if ('result' in outcome) {
          if (started) timed!('transaction', (performance.now() - started) / 1000);
          return outcome.result;
        }
        if (attempt >= ATTEMPTS) throw outcome.retry;
        await backoff(attempt);
      }
    },
  };
}
