// One-time addresses under concurrency: the index allocator never hands out an index twice (also after a rollback),
// each payment's address is the HD derivation at its index, and one link opened many times at once has one payment.
// Merchants with keys of their own (the merchants command's set-xpub) each count their own account's indexes.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { HDNodeWallet } from 'ethers';
import type { Hono } from 'hono';
import type { Payment } from '../../src/contract/index.js';
import { deriveAddress, sandboxRootKey } from '../../src/codecs/addresses.js';
import { MerchantAccounts, receivingKeyOf } from '../../src/sandbox/services/merchant/merchant-accounts.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { inProcess, JSON_TYPE, send, signedLinkBody } from '../helpers/merchant-api.js';

const ASSETS = [['USDT', 'TRON'], ['USDT', 'ETHEREUM'], ['ETH', 'ETHEREUM'], ['BTC', 'BITCOIN']] as const;

describe(`one-time address allocation (${storageName})`, () => {
  const gw = useTestGateway({ reset: true });
  let app: Hono;
  before(() => {
    app = inProcess(gw);
  });

  async function newLink(credentials = gw.credentials): Promise<string> {
    const answer = await send<{ payment_link_ref: string }>(app, 'POST', '/api/paymentLink', { body: JSON.stringify(signedLinkBody(credentials, sampleLink())), headers: JSON_TYPE });
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

  it("gives two merchants' payments opened at once each its own key's next indexes, 0 to n-1, none twice", async () => {
    const keys = [0, 1].map(() => HDNodeWallet.fromSeed(randomBytes(32)).derivePath("m/44'/60'/0'").neuter().extendedKey);
    const shops = await Promise.all(keys.map(async (xpub, i) => {
      const { credentials } = await gw.addMerchant(`Shop ${i}`);
      const { db, clock, merchants } = gw.gateway;
      await new MerchantAccounts(db, clock, merchants, 'sandbox').setXpub(credentials.clientId, receivingKeyOf({ family: 'evm', xpub, argument: '--evm' }, 'sandbox'));
      return { credentials, xpub };
    }));
    const perShop = 15;
    const refs = await Promise.all(shops.flatMap(({ credentials }) => Array.from({ length: perShop }, () => newLink(credentials))));
    // Both merchants, in both EVM assets, all at once: on PostgreSQL, transactions side by side on one account's row.
    const answers = await Promise.all(refs.map((ref, i) => open(ref, i % 3 ? ASSETS[2] : ASSETS[1])));
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([201]));
    for (const [i, { xpub }] of shops.entries()) {
      const addresses = answers.slice(i * perShop, (i + 1) * perShop).map((a) => a.body.address);
      const receive = HDNodeWallet.fromExtendedKey(xpub).deriveChild(0);
      assert.deepEqual(addresses.sort(), Array.from({ length: perShop }, (_, index) => receive.deriveChild(index).address).sort(), `shop ${i}`);
    }
    const rows = await gw.gateway.db.query<{ account_key: string; n: number; low: number; high: number }>(
      'SELECT account_key, count(DISTINCT address_index)::int AS n, min(address_index)::int AS low, max(address_index)::int AS high FROM payments GROUP BY account_key',
    );
    assert.deepEqual(rows.map(({ n, low, high }) => [n, low, high]), [[perShop, 0, perShop - 1], [perShop, 0, perShop - 1]]);
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
