// A gateway process on an EVM node, SIGKILLed while it follows the chain and started again: it resumes from its cursor
// (height and hash), finds what came while it was gone, and counts each transfer once.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseEip681 } from 'eth-url-parser';
import type { Payment } from '../../src/contract/index.js';
import { payUri, startTestChain, type TestChain } from '../helpers/anvil.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { sampleLink, storageName } from '../helpers/gateway.js';
import { signedLinkBody, send, JSON_TYPE } from '../helpers/merchant-api.js';
import { startGatewayProcess, urlInSchema, type GatewayProcess } from '../helpers/process.js';
import { loadConfig } from '../../src/sandbox/config.js';

const { sandboxMerchant } = loadConfig({});

describe(`a gateway SIGKILLed while it follows an EVM node (${storageName})`, () => {
  let chain: TestChain;
  let folder: string;
  let env: Record<string, string>;
  before(async () => {
    chain = await startTestChain();
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-evm-restart-'));
    let store: Record<string, string> = { PGLITE_DIR: join(folder, 'pglite') };
    if (process.env.TEST_DATABASE_URL) {
      const schema = `evm_restart_${Date.now().toString(36)}`;
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      store = { DATABASE_URL: urlInSchema(process.env.TEST_DATABASE_URL, schema) };
    }
    env = { ...store, ETHEREUM_RPC_URL: chain.rpcUrl, ETHEREUM_USDT_CONTRACT: chain.token, ETHEREUM_POLL_MS: '100', SANDBOX_BLOCK_INTERVAL_MS: '0' };
  });
  after(async () => {
    await chain.stop();
    await rm(folder, { recursive: true, force: true });
  });

  async function openOn(gateway: GatewayProcess, asset: 'ETH' | 'USDT') {
    const created = await send<{ payment_link_ref: string }>(gateway.url, 'POST', '/api/paymentLink', {
      headers: JSON_TYPE,
      body: JSON.stringify(signedLinkBody(sandboxMerchant, sampleLink())),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { status, body } = await checkoutApi(gateway.url, created.body.payment_link_ref).open(asset, 'ETHEREUM');
    assert.equal(status, 201, JSON.stringify(body));
    return { ref: created.body.payment_link_ref, payment: body };
  }
  async function until(gateway: GatewayProcess, ref: string, payment: Payment, ok: (p: Payment) => boolean): Promise<Payment> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { body } = await checkoutApi(gateway.url, ref).payment(payment.payment_id);
      if (ok(body)) return body;
      if (Date.now() > deadline) assert.fail(`payment ${payment.payment_id} is still ${JSON.stringify(body)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('resumes from its cursor after a SIGKILL mid-burst and counts every transfer once', async () => {
    let gateway = await startGatewayProcess(env);
    try {
      const first = await openOn(gateway, 'USDT');
      const second = await openOn(gateway, 'ETH');
      await payUri(chain, parseEip681(first.payment.payment_uri));
      await chain.client.mine({ blocks: 1 });
      await until(gateway, first.ref, first.payment, (p) => p.transactions[0]?.confirmations === 1);
      // A burst of blocks with the second payment in the middle, and the process killed while it follows them.
      await chain.client.mine({ blocks: 40 });
      await payUri(chain, parseEip681(second.payment.payment_uri));
      await chain.client.mine({ blocks: 40 });
      await gateway.kill();
      await chain.client.mine({ blocks: 2 });
      gateway = await startGatewayProcess(env);
      const tip = Number(await chain.client.getBlockNumber());
      const paidFirst = await until(gateway, first.ref, first.payment, (p) => p.transactions[0]?.confirmations === 83);
      const paidSecond = await until(gateway, second.ref, second.payment, (p) => p.transactions[0]?.confirmations === 42);
      for (const paid of [paidFirst, paidSecond]) {
        assert.equal(paid.status, 'paid');
        assert.equal(paid.transactions.length, 1, 'each transfer counted once');
        assert.equal(paid.received_crypto, paid.amount_crypto);
      }
      assert.equal((await sandboxApi(gateway.url).chain()).body.tips.ETHEREUM, tip, 'the cursor is at the node’s tip');
    } finally {
      await gateway.kill();
    }
  });
});
