// A data key rotation on PGlite (docs/operations.md, "Rotate the data key"). PGlite is one process's, so the processes
// here are two of the gateway's data key followers (services/operations/data-keys.ts) on one database, each with its
// own keys, beating when the test says; test/operations/key-rotation.postgres.test.ts runs two real processes. And
// a request that needs a secret no key of its process opens is a 503 that says why, not a 500.
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { MerchantClient, PayCheckoutApiError } from '../../src/merchant/index.js';
import { systemClock } from '../../src/sandbox/clock.js';
import { log } from '../../src/sandbox/logging.js';
import { Merchants } from '../../src/sandbox/services/merchant/merchants.js';
import { DataKeys } from '../../src/sandbox/services/operations/data-keys.js';
import { createSealer, type Sealer } from '../../src/sandbox/secrets.js';
import type { Database } from '../../src/sandbox/storage/database.js';
import { openDatabase } from '../../src/sandbox/storage/open.js';
import { readCanary, sealedValues } from '../../src/sandbox/storage/operations.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink } from '../helpers/gateway.js';
import { migratedPgliteImage } from '../helpers/pglite-image.js';

const OLD = 'the old data key of the rotation test';
const NEW = 'the new data key of the rotation test';

describe('rotating the data key (PGlite, two followers on one database)', () => {
  let db: Database;
  before(async () => {
    db = await openDatabase({ pgliteImage: await migratedPgliteImage() });
  });
  after(() => db.close());

  /** A process: its sealer, its follower of the key in force, and a merchant it writes. */
  let merchants = 0;
  const follower = async (dataKey: string, previous: string[] = []) => {
    const sealer = createSealer(dataKey, previous);
    const keys = new DataKeys(db, sealer, systemClock);
    await keys.start({ beating: false });
    const writes = () => new Merchants(db, sealer, systemClock, 'sandbox').upsert({ name: 'Rotation', clientId: `client_${++merchants}`, clientSecret: `secret_${merchants}`, merchantKey: `key_${merchants}` });
    return { sealer, keys, writes };
  };
  /** For each sealed value, which key of `sealer` opens it (0: its current). */
  const openedBy = async (sealer: Sealer) => new Set((await sealedValues(db)).map((value) => sealer.keyOf(value.sealed)));

  it('seals with the old key while a process without the new one lives, everything again once it is gone, and never back', async () => {
    const old = await follower(OLD);
    await old.writes();
    const current = await follower(NEW, [OLD]);
    assert.equal(current.sealer.sealing, 1, 'the new process seals with the old key, which the old process holds');
    // And tells the others so from its start: none counts on it sealing with the new key yet.
    const [told] = await db.query<{ sealing_key: string }>('SELECT sealing_key FROM gateway_processes WHERE process_id = $1', [current.keys.processId]);
    assert.equal(told?.sealing_key, old.sealer.ids[0]);
    await current.writes();
    await old.writes();
    for (let beats = 0; beats < 3; beats++) await Promise.all([old.keys.beatNow(), current.keys.beatNow()]);
    assert.deepEqual(await openedBy(old.sealer), new Set([0]), 'everything opens with the old key while the old process lives');

    await old.keys.stop();
    // The first beat alone takes the new key; the next, once every live process has sealed with it since, seals again.
    await current.keys.beatNow();
    assert.equal(current.sealer.sealing, 0);
    await current.keys.beatNow();
    assert.deepEqual(await openedBy(createSealer(NEW)), new Set([0]), 'everything opens with the new key alone');

    // A rollback: the old key current again, the new one previous. Beside the new process, it seals with the new key,
    // and neither seals back.
    const rolledBack = await follower(OLD, [NEW]);
    assert.equal(rolledBack.sealer.sealing, 1);
    await rolledBack.writes();
    for (let beats = 0; beats < 3; beats++) await Promise.all([rolledBack.keys.beatNow(), current.keys.beatNow()]);
    assert.equal(createSealer(NEW).keyOf((await readCanary(db))!), 0);
    assert.deepEqual(await openedBy(createSealer(NEW)), new Set([0]));
    // And once it is alone, the rollback is the rotation the other way.
    await current.keys.stop();
    await rolledBack.keys.beatNow();
    await rolledBack.keys.beatNow();
    assert.deepEqual(await openedBy(createSealer(OLD)), new Set([0]));
    await rolledBack.keys.stop();
  });
});

describe('a secret no key of the process opens', () => {
  const gw = useTestGateway();

  it('answers 503 with the reason, not 500', async () => {
    const { credentials } = await gw.addMerchant('Sealed Elsewhere');
    // As a process holding a newer key would have sealed it.
    await gw.gateway.db.query('UPDATE merchants SET client_secret_sealed = $2 WHERE client_id = $1', [credentials.clientId, createSealer(NEW).seal(credentials.clientSecret)]);
    const client = new MerchantClient({ baseUrl: gw.url, clientId: credentials.clientId, clientSecret: credentials.clientSecret, merchantKey: credentials.merchantKey, maxRetries: 0 });
    const refused = await client.createPaymentLink(sampleLink()).catch((error: unknown) => error);
    assert.ok(refused instanceof PayCheckoutApiError, String(refused));
    assert.equal(refused.status, 503);
    assert.match(refused.problem?.detail ?? '', /sealed with a data key this gateway process does not hold yet \(a key rotation is under way\)/);
  });

  it('leaves a webhook to another process, with a warning and no error', async () => {
    const endpoint = await gw.client.addWebhookEndpoint('http://127.0.0.1:9/rotation');
    await gw.gateway.db.query('UPDATE webhook_endpoints SET secret_sealed = $2 WHERE endpoint_id = $1', [endpoint.endpoint_id, createSealer(NEW).seal(endpoint.secret)]);
    await gw.client.sendTestWebhook(endpoint.endpoint_id);
    const error = mock.method(log, 'error', () => undefined);
    const warn = mock.method(log, 'warn', () => undefined);
    try {
      await gw.gateway.webhookDispatcher.deliverDue();
    } finally {
      error.mock.restore();
      warn.mock.restore();
    }
    assert.deepEqual(error.mock.calls.map((call) => call.arguments[1]), []);
    assert.ok(warn.mock.calls.some((call) => /delivery not sent by this process, left to another once its lease ends/.test(String(call.arguments[1]))));
    const [delivery] = await gw.client.getWebhookDeliveries(endpoint.endpoint_id);
    assert.equal(delivery?.attempts, 0, 'nothing was sent, and no attempt counted against the endpoint');
  });
});
