// DATABASE_URL exactly as `pg_autoctl show uri --formation default` prints it (docs/operations.md, "Going live"):
// several hosts, target_session_attrs=read-write, sslmode=prefer (a node made with --no-ssl) and no user. pg alone takes
// prefer for verify-full and fails on a server without SSL, and without $USER sends no user name: the gateway reads
// sslmode as libpq does and takes the operating system's user, as libpq does.
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { userInfo } from 'node:os';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { parsePostgresUrl, tlsFor } from '../../src/sandbox/storage/postgres-url.js';
import { asProblem } from '../../src/sandbox/http/problem.js';
import { DEFAULT_DATABASE_LIMITS } from '../../src/sandbox/storage/database.js';
import { openPostgres } from '../../src/sandbox/storage/postgres.js';

const databaseUrl = new URL(process.env.TEST_DATABASE_URL!);
const server = `${databaseUrl.hostname}:${databaseUrl.port || 5432}`;

/** A port nothing listens on: a node that is down. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('DATABASE_URL as pg_autoctl prints it (PostgreSQL)', () => {
  let down: string;
  const saved = { PGUSER: process.env.PGUSER, user: pg.defaults.user };
  before(async () => {
    down = `127.0.0.1:${await deadPort()}`;
    // The URI names no user: libpq's PGUSER gives it, as an operator would.
    process.env.PGUSER = decodeURIComponent(databaseUrl.username);
  });
  after(() => {
    if (saved.PGUSER === undefined) delete process.env.PGUSER;
    else process.env.PGUSER = saved.PGUSER;
    pg.defaults.user = saved.user;
  });

  for (const [order, hosts] of [
    ['the primary first', () => `${server},${down}`],
    ['a node that is down first, as after a failover', () => `${down},${server}`],
  ] as const) {
    it(`connects through sslmode=prefer to a server without SSL, unencrypted (${order})`, async () => {
      const database = await openPostgres(`postgres://${hosts()}${databaseUrl.pathname}?target_session_attrs=read-write&sslmode=prefer`);
      try {
        const rows = await database.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
        assert.deepEqual(rows, [{ ssl: false }]);
      } finally {
        await database.close();
      }
    });
  }

  it('waits out a silent host once with sslmode=prefer, not once to ask it for SSL and again to connect', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket)); // takes connections and never answers: a host lost
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const url = `postgres://127.0.0.1:${port},${server}${databaseUrl.pathname}?target_session_attrs=read-write&sslmode=prefer`;
      const database = await openPostgres(url, { limits: { ...DEFAULT_DATABASE_LIMITS, connectTimeoutMs: 300 } });
      await database.close();
      assert.equal(held.length, 1);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuses sslmode=require on a server without SSL, as libpq does', async () => {
    await assert.rejects(openPostgres(`postgres://${server}${databaseUrl.pathname}?sslmode=require`), /does not support SSL/);
  });

  it('takes the operating system user when neither the URI nor PGUSER nor $USER names one, as libpq does', async () => {
    delete process.env.PGUSER;
    pg.defaults.user = undefined; // pg's default is $USER, read once at load; unset in many services
    const os = userInfo().username;
    const opened = openPostgres(`postgres://${server}${databaseUrl.pathname}?sslmode=disable`);
    // The server is asked for that role: it exists (the test runs as the cluster's owner), or is refused by name.
    await opened.then(
      (database) => database.close(),
      (error: Error) => assert.match(error.message, new RegExp(`role "${os}" does not exist`)),
    );
  });

  it('reads sslmode as libpq: prefer and require do not check the certificate, verify-ca not the name, verify-full both', () => {
    assert.equal(parsePostgresUrl('postgres://h1:5432,h2:5432/db?target_session_attrs=read-write&sslmode=prefer').sslmode, 'prefer');
    assert.doesNotMatch(parsePostgresUrl('postgres://h/db?sslmode=prefer&application_name=x').url, /sslmode/);
    assert.throws(() => parsePostgresUrl('postgres://h/db?sslmode=maybe'), /has sslmode=maybe; it may be disable, allow, prefer, require, verify-ca, verify-full/);
    assert.equal(tlsFor('disable'), false);
    assert.deepEqual(tlsFor('prefer'), { rejectUnauthorized: false });
    assert.deepEqual(tlsFor('require'), { rejectUnauthorized: false });
    const withCa = tlsFor('require', { ca: 'CA' });
    assert.ok(withCa && withCa.ca === 'CA' && withCa.rejectUnauthorized === undefined && withCa.checkServerIdentity!('h', {} as never) === undefined);
    const verifyCa = tlsFor('verify-ca', { ca: 'CA' });
    assert.ok(verifyCa && verifyCa.checkServerIdentity!('h', {} as never) === undefined);
    assert.deepEqual(tlsFor('verify-full', { ca: 'CA' }), { ca: 'CA' });
  });
});

describe('a pool with no connection free (PostgreSQL)', () => {
  it('answers 503 with Retry-After, not 500, when no connection of the pool frees within the connect timeout', async () => {
    const database = await openPostgres(databaseUrl.toString(), { limits: { ...DEFAULT_DATABASE_LIMITS, poolMax: 1, connectTimeoutMs: 300 } });
    try {
      // The one connection is held past the timeout, as commits waiting on a server that is switching hold them all.
      const [held, waiting] = await Promise.allSettled([database.query('SELECT pg_sleep(1)'), database.query('SELECT 1')]);
      assert.equal(held.status, 'fulfilled');
      assert.equal(waiting.status, 'rejected');
      const problem = asProblem((waiting as PromiseRejectedResult).reason);
      assert.equal(problem?.status, 503, String((waiting as PromiseRejectedResult).reason));
      assert.equal(problem.headers?.['Retry-After'], '1');
    } finally {
      await database.close();
    }
  });
});
