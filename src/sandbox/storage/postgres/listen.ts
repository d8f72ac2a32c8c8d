// The LISTEN connection of the PostgreSQL store (../postgres.ts): one dedicated connection carries every LISTEN of this
// process and runs nothing else. Lost, it is replaced by one new client at a time, after a backoff with jitter; a
// client that failed to connect or to listen is closed before the next is made. An outage is logged when it starts
// and when it ends.
import pg from 'pg';
import { log } from '../../logging.js';
import type { Database } from '../database.js';
import { backoff } from './retries.js';

/** `newClient` makes a client not yet connected; `database` names the database in the log. */
export function listenerOf(newClient: () => pg.Client, database: string) {
  const handlers = new Map<string, Set<(payload: string | undefined) => void>>();
  let listener: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let lostAt: number | undefined;
  let closing = false;
  const listenTo = (client: pg.Client, channel: string) => client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);

  function connectListener(): Promise<pg.Client> {
    if (listener) return Promise.resolve(listener);
    connecting ??= (async () => {
      for (let attempt = 0; ; attempt++) {
        if (closing) throw new Error('the database is closed');
        const client = newClient();
        // Failures show as a rejected connect or query, or as `end` once connected; this keeps them from ending the process.
        client.on('error', (error) => log.debug({ err: error }, 'PostgreSQL LISTEN connection failed'));
        try {
          await client.connect();
          for (const channel of handlers.keys()) await listenTo(client, channel);
        } catch (error) {
          void client.end().catch(() => undefined);
          if (lostAt === undefined) throw error;
          await backoff(attempt);
          continue;
        }
        client.on('notification', (message) => {
          for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
        });
        client.once('end', () => lost(client));
        return (listener = client);
      }
    })().finally(() => (connecting = undefined));
    return connecting;
  }

  /** The listener is gone: one client is made again, until one is up; every handler then hears it may have missed some. */
  function lost(client: pg.Client): void {
    if (listener !== client) return;
    listener = undefined;
    if (closing) return;
    lostAt = Date.now();
    log.warn({ database }, 'PostgreSQL connection lost; reconnecting');
    void connectListener().then(
      () => {
        log.info({ database, outage_ms: Date.now() - lostAt! }, 'PostgreSQL connection back');
        lostAt = undefined;
        for (const set of handlers.values()) for (const handler of set) handler(undefined);
      },
      () => undefined, // closed meanwhile
    );
  }

  const listen: Database['listen'] = async (channel, onPayload) => {
    let set = handlers.get(channel);
    const isNew = !set;
    if (!set) {
      set = new Set();
      handlers.set(channel, set);
    }
    set.add(onPayload);
    // During an outage the channel is listened to when the connection is back (and the handler hears of the gap).
    if (lostAt === undefined) {
      const client = await connectListener();
      if (isNew) await listenTo(client, channel);
    }
    return async () => {
      set.delete(onPayload);
    };
  };

  return {
    listen,
    /** Ends the connection, which is then made again (on the server the pool reaches next). */
    drop(): void {
      void listener?.end().catch(() => undefined);
    },
    async close(): Promise<void> {
      closing = true;
      await connecting?.catch(() => undefined);
      await listener?.end().catch(() => undefined);
    },
  };
}
