// One-time addresses under concurrency: the index allocator never hands out an index twice (also after a rollback),
// each payment's address is the HD derivation at its index, and one link opened many times at once has one payment.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Hono } from 'hono';
import type { Payment } from '../../src/contract/index.js';
import { deriveAddress, sandboxRootKey } from '../../src/codecs/addresses.js';
import { sampleLink, startTestGateway, storageName, type TestGateway } from '../helpers/gateway.js';
import { inProcess, JSON_TYPE, send, signedLinkBody } from '../helpers/merchant-api.js';

const ASSETS = [['USDT', 'TRON'], ['USDT', 'ETHEREUM'], ['ETH', 'ETHEREUM'], ['BTC', 'BITCOIN']] as const;

describe(`one-time address allocation (${storageName})`, () => {
  let gw: TestGateway;
  let app: Hono;
  before(async () => {
    gw = await startTestGateway();
    app = inProcess(gw);
  });
  after(() => gw.close());
  beforeEach(() => gw.reset());

  async function newLink(): Promise<string> {
    const answer = await send<{ payment_link_ref: string }>(app, 'POST', '/api/paymentLink', { body: JSON.stringify(signedLinkBody(gw.credentials, sampleLink())), headers: JSON_TYPE });
    assert.equal(answer.status, 201);
    return answer.body.payment_link_ref;
  }
  const open = (ref: string, [asset, network]: (typeof ASSETS)[number]) =>
    send<Payment>(app, 'POST', `/api/checkout/${ref}/payments`, {
      body: JSON.stringify({ pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset, network }),
      headers: JSON_TYPE,
    });

  it('gives 60 payments opened at once 60 distinct indexes, each address derived at its own index', async () => {
    const refs = await Promise.all(Array.from({ length: 60 }, () => newLink()));
    const answers = await Promise.all(refs.map((ref, i) => open(ref, ASSETS[i % ASSETS.length]!)));
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([201]));
    const rows = await gw.gateway.db.query<{ address: string; address_index: number; network: Payment['network'] }>('SELECT address, address_index, network FROM payments');
    assert.equal(rows.length, 60);
    assert.equal(new Set(rows.map((r) => r.address_index)).size, 60);
    assert.equal(new Set(rows.map((r) => r.address)).size, 60);
    const root = sandboxRootKey(gw.gateway.config.payments.hdSeedHex);
    for (const row of rows) assert.equal(row.address, deriveAddress(root, gw.gateway.networks.of(row.network).family, row.address_index));
    assert.deepEqual(new Set(answers.map((a) => a.body.address)), new Set(rows.map((r) => r.address)));
  });

  it('never hands out an index taken by a transaction that rolled back', async () => {
    const taken = await gw.gateway.db
      .transaction(async (tx) => {
        const [row] = await tx.query<{ index: number }>(`SELECT nextval('payment_address_index')::bigint AS index`);
        throw Object.assign(new Error('rolled back'), { index: row!.index });
      })
      .catch((error: { index: number }) => error.index);
    await open(await newLink(), ASSETS[0]);
    const [row] = await gw.gateway.db.query<{ address_index: number }>('SELECT address_index FROM payments');
    assert.ok(row!.address_index > taken, `index ${row!.address_index} after ${taken}`);
  });

  it('gives ten concurrent opens of one link one payment and one address', async () => {
    const ref = await newLink();
    const answers = await Promise.all(Array.from({ length: 10 }, () => open(ref, ASSETS[3])));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal(new Set(answers.map((a) => a.body.payment_id)).size, 1);
    assert.equal(new Set(answers.map((a) => a.body.address)).size, 1);
    assert.equal((await gw.gateway.db.query('SELECT 1 FROM payments')).length, 1);
  });
});
