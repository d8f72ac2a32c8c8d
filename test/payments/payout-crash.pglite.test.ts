// A gateway process SIGKILLed in the middle of a payout, on an EVM node: after signing and before the node got the
// transaction, and after the node took it and before the gateway heard back. Started again on the same database, it
// pays the refund out exactly once. A JSON-RPC proxy in front of anvil holds the broadcast (or kills the gateway as
// it passes), so the kill lands where it is meant to.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseEip681 } from 'eth-url-parser';
import type { Address, Hex } from 'viem';
import { MerchantClient } from '../../src/merchant/index.js';
import { loadConfig } from '../../src/sandbox/config.js';
import { payUri, startTestChain, type TestChain } from '../helpers/anvil.js';
import { broadcastProxy, crashPoints, killedAt, type BroadcastProxy } from '../helpers/broadcast-proxy.js';
import { checkoutApi, claimedRefund } from '../helpers/checkout.js';
import { sampleLink } from '../helpers/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../helpers/process.js';

const { sandboxMerchant } = loadConfig({});
describe('a gateway SIGKILLed in the middle of a payout (PGlite)', () => {
  let chain: TestChain;
  let proxy: BroadcastProxy;
  let folder: string;
  let env: Record<string, string>;
  let gateway: GatewayProcess | undefined;
  before(async () => {
    chain = await startTestChain();
    proxy = await broadcastProxy(chain.rpcUrl, (_path, body) => body.includes('eth_sendRawTransaction'));
    // A PGlite folder that outlives each process (the PostgreSQL pass runs test/payments/refund-concurrency.postgres.test.ts).
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-payout-crash-'));
    env = { PGLITE_DIR: join(folder, 'pglite'), ETHEREUM_RPC_URL: proxy.url, ETHEREUM_USDT_CONTRACT: chain.token, ETHEREUM_POLL_MS: '100', SANDBOX_BLOCK_INTERVAL_MS: '0' };
  });
  after(async () => {
    await gateway?.kill();
    await proxy.close();
    await chain.stop();
    await rm(folder, { recursive: true, force: true });
  });

  const client = () => new MerchantClient({ baseUrl: gateway!.url, clientId: sandboxMerchant.clientId, clientSecret: sandboxMerchant.clientSecret, merchantKey: sandboxMerchant.merchantKey });
  async function until<T>(what: string, probe: () => Promise<T | undefined>, mine = false): Promise<T> {
    for (let i = 0; i < 300; i++) {
      const found = await probe();
      if (found !== undefined) return found;
      if (mine) await chain.client.mine({ blocks: 1 });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  }
  /** A paid ETH order, refunded and claimed to a fresh address: the gateway's payout round picks it up next. */
  async function paidAndClaimed(to: Address) {
    const link = await client().createPaymentLink(sampleLink());
    const { body: payment } = await checkoutApi(gateway!.url, link.payment_link_ref).open('ETH', 'ETHEREUM');
    await payUri(chain, parseEip681(payment.payment_uri));
    await until('the payment paid', async () => ((await client().getPaymentLink(link.payment_link_ref)).status === 'paid' ? true : undefined), true);
    const orderId = (await client().getPaymentLink(link.payment_link_ref)).merchant_order_id;
    return (await claimedRefund(gateway!.url, client(), orderId, 80_000, to)).refund_id;
  }
  /** Transactions on the node from the hot wallet to `to`. */
  async function paymentsTo(to: Address, hot: Address): Promise<bigint[]> {
    const sent: bigint[] = [];
    const tip = await chain.client.getBlockNumber();
    for (let n = 0n; n <= tip; n++) {
      for (const tx of (await chain.client.getBlock({ blockNumber: n, includeTransactions: true })).transactions) {
        if (tx.from.toLowerCase() === hot.toLowerCase() && tx.to?.toLowerCase() === to.toLowerCase()) sent.push(tx.value);
      }
    }
    return sent;
  }
  const fresh = () => `0x${[...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, '0')).join('')}` as Address;

  for (const [mode, where] of crashPoints) {
    it(`pays out exactly once when killed ${where}`, async () => {
      proxy.pass();
      gateway = await startGatewayProcess(env);
      const to = fresh();
      const { result: refundId, gateway: restarted } = await killedAt(proxy, mode, gateway, env, () => paidAndClaimed(to));
      gateway = restarted;
      const done = await until('the refund SUCCESS', async () => {
        const refund = await client().getRefund(refundId);
        return refund.refund_status === 'PENDING' ? undefined : refund;
      }, true);
      assert.equal(done.refund_status, 'SUCCESS', done.failure_reason ?? '');
      const hot = (await chain.client.getTransaction({ hash: done.psp_refund_id as Hex })).from;
      const sent = await paymentsTo(to, hot);
      assert.equal(sent.length, 1, 'one payout transaction');
      assert.equal(await chain.client.getBalance({ address: to }), sent[0]);
      await gateway.stop();
      gateway = undefined;
    });
  }
});
