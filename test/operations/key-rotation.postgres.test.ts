// A data key rotation as docs/operations.md ("Rotate the data key") tells it, on two real processes sharing one
// PostgreSQL database (PGlite is one process's: test/operations/key-rotation.pglite.test.ts follows the same steps
// there). A process with the old key only serves beside one started with the new key: neither answers a 500, and
// nothing is sealed with the new key while the old process lives; once it stops, the new one seals everything again.
// Then a process without the new key is refused at start, and one that holds it as previous (a rollback) serves.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { MerchantClient } from '../../src/merchant/index.js';
import { loadConfig } from '../../src/sandbox/config.js';
import { createSealer, type Sealer } from '../../src/sandbox/secrets.js';
import { sampleLink } from '../helpers/gateway.js';
import { startGatewayProcess, urlInSchema, type GatewayProcess } from '../helpers/process.js';
import { until } from '../helpers/until.js';

const databaseUrl = process.env.TEST_DATABASE_URL!;
const OLD = 'the old data key of the rotation test';
const NEW = 'the new data key of the rotation test';

describe('rotating the data key with two processes on the database (PostgreSQL)', () => {
  const schema = `rotation_${process.pid}`;
  const env = { DATABASE_URL: urlInSchema(databaseUrl, schema), LOG_LEVEL: 'info' };
  const merchant = loadConfig({}).sandboxMerchant;
  const gateways: GatewayProcess[] = [];
  let admin: pg.Client;

  before(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
  });
  after(async () => {
    for (const gateway of gateways) await gateway.kill();
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.end();
  });

  const start = async (keys: Record<string, string>) => {
    const gateway = await startGatewayProcess({ ...env, ...keys }, { captureLogs: true });
    gateways.push(gateway);
    return gateway;
  };
  const failures: string[] = [];
  let endpoints = 0;
  /** What opens a sealed value on every call: the merchant's endpoints (each secret), and a signed link creation. */
  const exercise = async (name: string, gateway: GatewayProcess) => {
    const client = new MerchantClient({
      baseUrl: gateway.url,
      clientId: merchant.clientId,
      clientSecret: merchant.clientSecret,
      merchantKey: merchant.merchantKey,
      maxRetries: 0,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (response.status >= 500) failures.push(`${name}: ${init?.method ?? 'GET'} ${new URL(String(input)).pathname} → ${response.status} ${await response.clone().text()}`);
        return response;
      },
    });
    // A public address as a literal: no DNS asked.
    await client.addWebhookEndpoint(`https://93.184.216.34/rotation-${++endpoints}`).catch(() => undefined);
    await client.listWebhookEndpoints().catch(() => undefined);
    await client.createPaymentLink(sampleLink()).catch(() => undefined);
  };
  const sealed = async () =>
    (
      await admin.query<{ sealed: string }>(
        `SELECT client_secret_sealed AS sealed FROM ${schema}.merchants UNION ALL SELECT secret_sealed FROM ${schema}.webhook_endpoints
         UNION ALL SELECT sealed FROM ${schema}.data_key_canary`,
      )
    ).rows.map((row) => row.sealed);
  /** How many of the sealed values each key is the one to open (the current key of `sealer`: 0). */
  const openedBy = async (sealer: Sealer) => (await sealed()).map((value) => sealer.keyOf(value));
  /** What /readyz says of the data key: `ok`, or its detail. */
  const dataKeyCheck = async (gateway: GatewayProcess) => {
    const { checks } = (await (await fetch(`${gateway.url}/readyz`)).json()) as { checks: { data_key: { ok: boolean; detail?: string } } };
    return checks.data_key.detail ?? (checks.data_key.ok ? 'ok' : 'not ok');
  };
  const errorLines = () =>
    gateways.flatMap((gateway) => gateway.logEntries().filter((entry) => entry.level === 'error' || entry.level === 'fatal' || Number(entry.level) >= 50).map((entry) => `${gateway.pid}: ${entry.msg} ${JSON.stringify(entry.err ?? '')}`));

  it('serves from the old key and the new one side by side with no 500, and seals again only once the old process is gone', async () => {
    const old = await start({ GATEWAY_DATA_KEY: OLD });
    await exercise('old', old);
    // Step 2 without step 1: the new key, the old one as previous, beside a process that has only the old one.
    const current = await start({ GATEWAY_DATA_KEY: NEW, GATEWAY_DATA_KEYS_PREVIOUS: OLD });
    for (let round = 0; round < 3; round++) {
      await exercise('current', current);
      await exercise('old', old);
    }
    assert.deepEqual(failures, [], `the processes logged:\n${errorLines().slice(0, 5).join('\n')}`);
    // Nothing sealed with the new key while the old process lives: everything opens with the old key alone, after the
    // new process has beaten (told its keys and heard the old one's) twice since its start.
    const beats = async () => (await admin.query<{ seen_at: Date }>(`SELECT seen_at FROM ${schema}.gateway_processes WHERE process_id LIKE $1`, [`%/${current.pid}/%`])).rows[0]?.seen_at;
    const first = await beats();
    const second = await until(beats, (at) => at !== undefined && at > first!, 30_000);
    await until(beats, (at) => at !== undefined && at > second.value!, 30_000);
    assert.deepEqual(new Set(await openedBy(createSealer(OLD))), new Set([0]), 'everything opens with the old key while the old process lives');
    assert.match(await dataKeyCheck(current), /^a rotation waits/);
    await exercise('old', old);
    assert.deepEqual(failures, []);

    // The old process stops: the new one, alone, seals everything again with the new key.
    await old.stop();
    const rotated = await until(
      async () => current.logEntries().find((entry) => entry.msg.startsWith('data key: rotated')),
      (entry) => entry !== undefined,
      30_000,
    );
    assert.ok(rotated.value, `no rotation logged:\n${current.logs().slice(-2000)}`);
    assert.deepEqual(new Set(await openedBy(createSealer(NEW))), new Set([0]), 'everything opens with the new key alone');
    assert.equal(await dataKeyCheck(current), 'ok');
    await exercise('current', current);

    // A process started without the new key is refused, and says why; one that holds it as previous serves.
    await assert.rejects(start({ GATEWAY_DATA_KEY: OLD }), /GATEWAY_DATA_KEY opens none of the \d+ secrets this database holds sealed/);
    const rolledBack = await start({ GATEWAY_DATA_KEY: OLD, GATEWAY_DATA_KEYS_PREVIOUS: NEW });
    await exercise('rolled back', rolledBack);
    await exercise('current', current);
    assert.deepEqual(new Set(await openedBy(createSealer(NEW))), new Set([0]), 'beside a process on the new key, the rolled back one seals with it');
    assert.deepEqual(failures, []);
    assert.deepEqual(errorLines(), []);
  });
});
