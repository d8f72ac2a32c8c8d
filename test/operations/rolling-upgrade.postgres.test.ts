// A rolling upgrade, as docs/operations.md ("Upgrade") promises it: the previous release serves load on PostgreSQL
// while this one migrates the same database and starts beside it; neither answers a 500 or logs an error, everything
// either acknowledged (links created, payments opened) reads back from both, and the database upgraded through the
// previous release has the schema of the snapshot (test/operations/schema.snapshot.sql), as a new one does.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { MerchantClient } from '../../src/merchant/index.js';
import { loadConfig } from '../../src/sandbox/config.js';
import { sampleLink } from '../helpers/gateway.js';
import { startGatewayProcess, urlInSchema, type GatewayProcess } from '../helpers/process.js';
import { dumpSchema, schemaDifference } from '../helpers/schema-dump.js';

/**
 * The release this one must run beside: the commit of the last release, kept current as releases land (a release that
 * cannot run beside the one before says so in docs/operations.md, "Upgrade", and moves this past it).
 */
const PREVIOUS_RELEASE = '027043f6511043b62acb7c42b3fc154dab0492a6';

const databaseUrl = process.env.TEST_DATABASE_URL!;
const repository = fileURLToPath(new URL('../..', import.meta.url));
/** Links with a payment the previous release acknowledges alone, then each release beside the other, before the test stops. */
const ACKNOWLEDGED_EACH = 25;
const WORKERS = 2;

interface Acknowledged {
  ref: string;
  paymentId: string;
  by: string;
}

describe('rolling upgrade from the previous release (PostgreSQL)', () => {
  const schema = `rolling_${process.pid}`;
  const env = {
    DATABASE_URL: urlInSchema(databaseUrl, schema),
    LOG_LEVEL: 'warn',
    // Blocks often, so that each process's watcher reads the chain tables throughout.
    SANDBOX_BLOCK_INTERVAL_MS: '500',
    // Every open comes from loopback: the per-client limit would answer 429 long before the test is done.
    LIMIT_OPENS_PER_CLIENT_PER_MINUTE: '1000000',
  };
  const merchant = loadConfig({}).sandboxMerchant;
  let previous: string;
  let admin: pg.Client;
  let old: GatewayProcess | undefined;
  let current: GatewayProcess | undefined;

  before(async () => {
    previous = mkdtempSync(join(tmpdir(), 'pay-checkout-previous-'));
    const known = spawnSync('git', ['-C', repository, 'cat-file', '-e', `${PREVIOUS_RELEASE}^{commit}`]);
    assert.equal(known.status, 0, `the previous release ${PREVIOUS_RELEASE} is not in this clone's history (a shallow clone? git fetch --unshallow)`);
    execFileSync('sh', ['-c', `git -C "${repository}" archive ${PREVIOUS_RELEASE} | tar -x -C "${previous}"`]);
    symlinkSync(join(repository, 'node_modules'), join(previous, 'node_modules'));
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
  });
  after(async () => {
    await old?.kill();
    await current?.kill();
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.end();
    rmSync(previous, { recursive: true, force: true });
  });

  it('serves from both releases, with no 500, and what either acknowledged reads back from both', async (t) => {
    const started = performance.now();
    old = await startGatewayProcess(env, { cwd: previous, captureLogs: true });
    const oldStarted = performance.now();

    const failures: string[] = [];
    const acknowledged: Acknowledged[] = [];
    // The test goes on when enough was acknowledged (or something failed, which the assertions then show), not after a time.
    const waiters: (() => boolean)[] = [];
    const heard = () => {
      for (const settled of [...waiters]) if (settled()) waiters.splice(waiters.indexOf(settled), 1);
    };
    const until = (enough: () => boolean) =>
      new Promise<void>((resolve) => {
        const settled = () => (enough() || failures.length > 0) && (resolve(), true);
        if (!settled()) waiters.push(settled);
      });
    const count = (by: string) => acknowledged.filter((a) => a.by === by).length;
    // The SDK retries a 5xx: each answer it got is looked at, not only the last.
    const recording =
      (name: string): typeof fetch =>
      async (input, init) => {
        const response = await fetch(input, init);
        if (response.status >= 500) failures.push(`${name}: ${init?.method ?? 'GET'} ${new URL(String(input)).pathname} → ${response.status} ${await response.clone().text()}`);
        return response;
      };
    const sdk = (name: string, url: string) =>
      new MerchantClient({ baseUrl: url, clientId: merchant.clientId, clientSecret: merchant.clientSecret, merchantKey: merchant.merchantKey, fetch: recording(name) });
    const checkout = async (name: string, url: string, path: string, body?: unknown) => {
      const response = await fetch(`${url}${path}`, body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : undefined);
      const text = await response.text();
      if (!response.ok) throw new Error(`${name}: ${body ? 'POST' : 'GET'} ${path} → ${response.status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as { payment_id?: string; payment?: { payment_id: string } | null };
    };

    let stop = false;
    const worker = async (name: string, url: string) => {
      const client = sdk(name, url);
      while (!stop) {
        try {
          const { payment_link_ref: ref } = await client.createPaymentLink(sampleLink());
          const payment = await checkout(name, url, `/api/checkout/${ref}/payments`, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' });
          acknowledged.push({ ref, paymentId: payment.payment_id!, by: name });
          heard();
          await checkout(name, url, `/api/checkout/${ref}`);
        } catch (error) {
          failures.push((error as Error).message);
          heard();
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, () => worker('previous', old!.url));
    await until(() => count('previous') >= ACKNOWLEDGED_EACH);

    // This release migrates the database the previous one is serving, and starts beside it.
    current = await startGatewayProcess(env, { cwd: repository, captureLogs: true });
    const currentStarted = performance.now();
    const byOldAtStart = count('previous');
    workers.push(...Array.from({ length: WORKERS }, () => worker('current', current!.url)));
    await until(() => count('current') >= ACKNOWLEDGED_EACH && count('previous') >= byOldAtStart + ACKNOWLEDGED_EACH);
    stop = true;
    await Promise.all(workers);
    const byOld = acknowledged.filter((a) => a.by === 'previous').length;
    t.diagnostic(
      `previous release started in ${Math.round(oldStarted - started)} ms, this one ${Math.round(currentStarted - oldStarted)} ms later; ` +
        `${acknowledged.length} links with a payment acknowledged (${byOld} by the previous release, ${acknowledged.length - byOld} by this one)`,
    );
    const errorLines = () =>
      [old!, current!].flatMap((gateway, i) =>
        gateway
          .logEntries()
          .filter((entry) => entry.level === 'error' || entry.level === 'fatal' || Number(entry.level) >= 50)
          .map((entry) => `${i ? 'current' : 'previous'}: ${entry.msg} ${JSON.stringify((entry.err as { message?: string } | undefined)?.message ?? '')}`),
      );
    const why = () => `; the processes logged:\n${[...new Set(errorLines())].slice(0, 5).join('\n')}`;
    assert.deepEqual(failures.slice(0, 6), [], `${failures.length} requests failed${why()}`);
    assert.ok(byOld > 0 && acknowledged.length > byOld, 'both releases served');

    for (const [name, gateway] of [['previous', old], ['current', current]] as const) {
      const client = sdk(name, gateway.url);
      const readBack = async ({ ref, paymentId }: Acknowledged) => {
        const view = await checkout(name, gateway.url, `/api/checkout/${ref}`);
        assert.equal(view.payment?.payment_id, paymentId, `${name} reads the payment opened on ${ref}`);
        await checkout(name, gateway.url, `/api/checkout/${ref}/payments/${paymentId}`);
        assert.equal((await client.getPaymentLink(ref)).payment_link_ref, ref);
      };
      // A few at a time: the reads of a hundred links, not a load test.
      for (let i = 0; i < acknowledged.length; i += 8) await Promise.all(acknowledged.slice(i, i + 8).map(readBack));
    }
    assert.deepEqual(failures.slice(0, 6), [], `${failures.length} reads failed${why()}`);

    // The previous release stays ready beside a newer schema: it cannot tell (docs/operations.md, "Upgrade").
    const readiness = (await (await fetch(`${old.url}/readyz`)).json()) as { ready: boolean; checks: { migrations: { detail?: string } } };
    t.diagnostic(`the previous release's /readyz: ready ${readiness.ready}, migrations: ${readiness.checks.migrations.detail ?? 'as it ships'}`);
    assert.equal(readiness.ready, true);

    const errors = errorLines();
    assert.deepEqual(errors.slice(0, 6), [], `${errors.length} error lines in the logs`);

    // Upgraded through the previous release's migrations, the database is what one made by this release alone is.
    const snapshot = readFileSync(new URL('./schema.snapshot.sql', import.meta.url), 'utf8');
    assert.equal(schemaDifference(await dumpSchema(databaseUrl, schema), snapshot, 'the upgraded database', 'the snapshot'), '');
    t.diagnostic(`${Math.round(performance.now() - started)} ms in all`);
  });
});
