// The gateway process killed (SIGKILL) after a payment changed state and before its webhooks went out: a new
// process on the same storage (PGlite folder, or PostgreSQL) delivers them. Nothing is lost with the process.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MerchantClient, verifyWebhook } from '../../src/merchant/index.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/config.js';
import { ManualClock } from '../../src/sandbox/clock.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { sampleLink, startTestGateway, storageName } from '../helpers/gateway.js';
import { startGatewayProcess, urlInSchema } from '../helpers/process.js';
import { startReceiver } from '../helpers/receiver.js';

describe(`webhooks across a killed gateway (${storageName})`, () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let dataDir: string | undefined;
  const schema = process.env.TEST_DATABASE_URL ? `test_kill_${Date.now().toString(36)}` : undefined;

  before(async () => {
    receiver = await startReceiver();
    if (!schema) dataDir = await mkdtemp(join(tmpdir(), 'pay-checkout-kill-'));
  });
  after(async () => {
    await receiver.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers payment.confirming and payment.paid from the next process', async () => {
    await receiver.stop(); // the merchant is down while the first process runs: nothing can be delivered
    const storage: Record<string, string> = schema
      ? { DATABASE_URL: urlInSchema(process.env.TEST_DATABASE_URL!, schema) }
      : { PGLITE_DIR: dataDir! };
    if (schema) {
      // main.ts works in the schema it is given but does not create it.
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
    }
    const first = await startGatewayProcess({ ...storage, SANDBOX_WEBHOOK_URL: receiver.url, SANDBOX_ALLOW_LOCAL_WEBHOOKS: '1' });
    let secret: string;
    let paymentId: string;
    try {
      const client = new MerchantClient({ baseUrl: first.url, ...SANDBOX_DEFAULTS });
      const [endpoint] = await client.listWebhookEndpoints();
      assert.ok(endpoint, 'SANDBOX_WEBHOOK_URL gave the sandbox merchant an endpoint');
      secret = endpoint.secret;
      const link = await client.createPaymentLink(sampleLink());
      const { body: payment } = await checkoutApi(first.url, link.payment_link_ref).open('USDT', 'TRON');
      paymentId = payment.payment_id;
      await sandboxApi(first.url).transfer(payment.address, 'USDT', 'TRON', payment.amount_crypto);
      await sandboxApi(first.url).mine(payment.confirmations_required, 'TRON');
      const { body: paid } = await checkoutApi(first.url, link.payment_link_ref).payment(payment.payment_id);
      assert.equal(paid.status, 'paid');
    } finally {
      await first.kill();
    }

    await receiver.start();
    // Later than any retry the first process scheduled.
    const clock = new ManualClock(new Date(Date.now() + 3_600_000));
    const second = await startTestGateway({ clock, schema, config: { dataDir } });
    try {
      await second.deliverAll();
      const events = await Promise.all(receiver.received.map((r) => verifyWebhook(r.body, r.signature, secret, { now: clock.now() })));
      assert.deepEqual(events.map((e) => [e.type, e.payment_id]), [
        ['payment.confirming', paymentId],
        ['payment.paid', paymentId],
      ]);
    } finally {
      await second.close();
    }
  });
});
