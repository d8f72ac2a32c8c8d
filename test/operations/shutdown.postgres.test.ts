// SIGTERM to one of two gateway processes behind a load balancer, as an orchestrator stops it: /readyz says 503 at
// once; 100 requests that arrive at the signal are each answered, or refused before they started (never reset
// mid-way); 200 event streams end whole with a retry hint and reconnect through the balancer to the other process;
// the process exits 0 within its bound. And /readyz while the database is down: 503 within a second, 200 once it is back.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { EventSource } from 'eventsource';
import { loadConfig } from '../../src/sandbox/config.js';
import { sampleLink } from '../helpers/gateway.js';
import { signedLinkBody } from '../helpers/merchant-api.js';
import { proxiedSchema, startGatewayProcess, type GatewayProcess, type ProxiedSchema } from '../helpers/process.js';
import { until } from '../helpers/until.js';

const databaseUrl = process.env.TEST_DATABASE_URL!;
const STREAMS = 200;
const REQUESTS = 100;
// The stop's bound is a guard against a hang, not a speed check: on a machine at load 15-20, where each of the 200
// streams and 100 requests took 1-4 s, a stop ran past 10 s and the process exited 1.
const BOUND_MS = 30_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP load balancer: each connection goes to the first backend that takes it (a stopped process refuses). */
async function startBalancer(backends: () => string[]): Promise<{ url: string; close(): void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.pause();
    const tryFrom = (i: number) => {
      const target = backends()[i];
      if (!target) return client.destroy();
      const { hostname, port } = new URL(target);
      const upstream = connect(Number(port), hostname);
      sockets.add(upstream);
      let connected = false;
      upstream.once('error', () => (connected ? client.destroy() : tryFrom(i + 1)));
      upstream.once('connect', () => {
        connected = true;
        client.pipe(upstream).pipe(client);
        client.resume();
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
    };
    client.on('error', () => client.destroy());
    tryFrom(0);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** A GET on a connection of its own: its status, or how it failed. */
function get(url: string): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode }));
      res.once('aborted', () => resolve({ error: 'aborted' }));
    });
    req.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

/** An event stream read to its end: whether it ended whole, and what it said last. */
function rawStream(url: string): { opened: Promise<void>; ended: Promise<{ whole: boolean; text: string }> } {
  let opened!: () => void;
  const openedPromise = new Promise<void>((resolve) => (opened = resolve));
  const ended = new Promise<{ whole: boolean; text: string }>((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        opened();
      });
      res.once('end', () => resolve({ whole: true, text }));
      res.once('aborted', () => resolve({ whole: false, text }));
      res.once('error', () => resolve({ whole: false, text }));
    });
    req.once('error', () => resolve({ whole: false, text: '' }));
    req.end();
  });
  return { opened: openedPromise, ended };
}

describe('stopping a gateway process (PostgreSQL)', () => {
  const schema = `shutdown_${process.pid}`;
  let database: ProxiedSchema;
  let env: Record<string, string>;
  const processes: GatewayProcess[] = [];
  const sources: EventSource[] = [];
  let balancer: { url: string; close(): void } | undefined;

  before(async () => {
    // The processes reach the database through a proxy, so a test can take it away.
    database = await proxiedSchema(databaseUrl, schema);
    // 200 streams on one link from this machine: more than one address or link may hold by default.
    env = { DATABASE_URL: database.url, LIMIT_STREAMS_PER_CLIENT: '1000', LIMIT_STREAMS_PER_LINK: '1000', SANDBOX_BLOCK_INTERVAL_MS: '0', SHUTDOWN_TIMEOUT_MS: String(BOUND_MS), SHUTDOWN_DELAY_MS: '1000', LOG_LEVEL: 'info' };
  });
  after(async () => {
    // A test that failed half-way leaves these open, and they would keep this file's process from ever ending.
    for (const source of sources) source.close();
    balancer?.close();
    for (const p of processes) await p.kill();
    await database?.drop();
  });

  const readyz = async (base: string) => {
    const response = await fetch(`${base}/readyz`);
    return { status: response.status, body: (await response.json()) as { ready: boolean; stopping: boolean; checks: Record<string, { ok: boolean }> } };
  };

  // Within a second by its own deadline, whatever the database does: test/operations/readiness.test.ts.
  it('answers /readyz 503 while the database is down, and 200 once it is back', async () => {
    const gateway = await startGatewayProcess(env, { captureLogs: true });
    processes.push(gateway);
    assert.equal((await readyz(gateway.url)).status, 200);
    database.proxy.refuse();
    const { value: down } = await until(() => readyz(gateway.url), (answer) => answer.status === 503, 5_000);
    assert.equal(down.status, 503);
    assert.equal(down.body.checks.database!.ok, false);
    database.proxy.thaw();
    const { value: back } = await until(() => readyz(gateway.url), (answer) => answer.status === 200, 10_000);
    assert.equal(back.status, 200);
  });

  it(`ends ${STREAMS} streams for another process, answers or refuses ${REQUESTS} requests at the signal, and exits 0 in time`, async (t) => {
    const [first] = processes;
    const second = await startGatewayProcess(env, { captureLogs: true });
    processes.push(second);
    const { sandboxMerchant } = loadConfig({});
    const created = await fetch(`${first!.url}/api/paymentLink`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(signedLinkBody(sandboxMerchant, sampleLink())),
    });
    const { payment_link_ref: ref } = (await created.json()) as { payment_link_ref: string };
    const opened = await fetch(`${first!.url}/api/checkout/${ref}/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' }),
    });
    assert.equal(opened.status, 201);

    // The balancer sends to the first process while it takes connections, then to the second.
    balancer = await startBalancer(() => processes.map((p) => p.url));
    const through = balancer.url;
    const eventsPath = `/api/checkout/${ref}/events`;
    const browsers = Array.from({ length: STREAMS - 20 }, () => {
      const source = new EventSource(`${through}${eventsPath}`);
      sources.push(source);
      const state = { opens: 0, source, opened: once(source, 'open') };
      source.addEventListener('open', () => state.opens++);
      return state;
    });
    const raw = Array.from({ length: 20 }, () => rawStream(`${first!.url}${eventsPath}`));
    await Promise.all([...raw.map((r) => r.opened), ...browsers.map((b) => b.opened)]);

    const stopped = first!.stop('SIGTERM');
    const answers = Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        await pause(i * 5);
        return get(`${first!.url}/api/checkout/${ref}`);
      }),
    );
    // The process has taken the signal once it says so; from then on /readyz answers 503.
    await until(async () => first!.logEntries(), (entries) => entries.some((l) => l.msg === 'stopping'), 5_000);
    const stopping = await readyz(first!.url);
    assert.equal(stopping.status, 503);
    assert.equal(stopping.body.stopping, true);

    // Exit 0 is a stop finished within SHUTDOWN_TIMEOUT_MS: past it, the process exits 1 (src/sandbox/start.ts).
    const { code, ms } = await stopped;
    assert.equal(code, 0, first!.logs());
    const results = await answers;
    const failures = results.filter((r) => r.error && r.error !== 'ECONNREFUSED');
    assert.deepEqual(failures, [], 'requests reset mid-way');
    const answered = results.filter((r) => r.status === 200).length;
    assert.ok(answered > 0, 'requests answered');
    t.diagnostic(`exit ${code} after ${Math.round(ms)} ms; of ${REQUESTS} requests ${answered} answered, ${REQUESTS - answered} refused`);
    for (const { ended } of raw) {
      const { whole, text } = await ended;
      assert.ok(whole, 'a stream was cut, not ended');
      assert.match(text, /retry: \d+\n\n$/);
    }
    // Every browser's EventSource came back, through the balancer, to the second process.
    const notBack = () => browsers.filter((b) => b.opens < 2 || b.source.readyState !== EventSource.OPEN).length;
    assert.equal((await until(async () => notBack(), (n) => n === 0, 10_000)).value, 0, 'streams not back');
    const metrics = await (await fetch(`${second.url}/metrics`)).text();
    assert.match(metrics, new RegExp(`^pay_checkout_event_streams_open ${STREAMS - 20}$`, 'm'));
    for (const b of browsers) b.source.close();
  });
});
