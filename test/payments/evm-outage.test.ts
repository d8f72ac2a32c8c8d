// A node the gateway cannot see for a while: frozen behind a proxy (it accepts connections and never answers) while the
// customer pays through the chain itself, or stopped outright with SIGSTOP. New payments on its network are refused
// with a 503 within seconds, other networks go on, nothing on it runs out meanwhile, and once the node answers again
// the payment sent before its quote ran out is in time and paid. The gateway's own timers run here, on a real clock.
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { parse as parseEip681 } from 'eth-url-parser';
import type { Payment } from '../../src/contract/index.js';
import { ethereumOn, payUri, useGatewayOnChain } from '../helpers/anvil.js';

import { checkoutApi } from '../helpers/checkout.js';
import { RunningClock, sampleLink, storageName } from '../helpers/gateway.js';

import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { eventually } from '../helpers/until.js';

describe(`the gateway while its EVM node cannot be seen (${storageName})`, () => {
  let proxy: TcpProxy;
  const { chain, gw } = useGatewayOnChain({
    gateway: async (chain) => {
      proxy = await startTcpProxy(chain.rpcUrl);
      return {
        clock: new RunningClock(),
        watch: true,
        config: {
          networks: ethereumOn({ ...chain, rpcUrl: proxy.url }, { ETHEREUM_TIMEOUT_MS: '500' }),
          payments: { ...(await import('../../src/sandbox/config.js')).loadConfig({}).payments, quoteTtlSeconds: 8 },
        },
      };
    },
  });
  after(() => proxy?.close());

  const openOn = async (network: 'ETHEREUM' | 'TRON', asset: 'ETH' | 'USDT') => {
    const link = await gw.client.createPaymentLink(sampleLink());
    return { checkout: checkoutApi(gw.url, link.payment_link_ref), ...(await checkoutApi(gw.url, link.payment_link_ref).open(asset, network)) };
  };

  it('refuses new payments on the network with a 503, holds its quotes, and pays in time what was sent before the quote ran out', async () => {
    const { checkout, status, body: payment } = await openOn('ETHEREUM', 'ETH');
    assert.equal(status, 201, JSON.stringify(payment));
    proxy.freeze();
    // The customer pays through the chain, not through the gateway's node: it is mined with a time inside the quote.
    await payUri(chain, parseEip681(payment.payment_uri));
    await chain.client.mine({ blocks: payment.confirmations_required });

    const refused = await eventually('a new ETH payment', () => openOn('ETHEREUM', 'ETH'), (answer) => answer.status === 503);
    const problem = refused.body as unknown as { status: number; detail: string };
    assert.equal(problem.status, 503);
    assert.match(problem.detail, /Ethereum Sepolia \(ETHEREUM\) cannot be reached right now/);
    assert.equal((await openOn('TRON', 'USDT')).status, 201, 'the simulated networks go on');
    const view = (await checkout.view()).body;
    assert.equal(view.methods[0]!.assets.find((a) => a.network === 'ETHEREUM')!.available, false, 'the checkout says so before the customer picks');

    // The quote runs out by the clock while the gateway cannot see the chain: it is not expired for that.
    await new Promise((resolve) => setTimeout(resolve, Date.parse(payment.quote_expires_at) - Date.now() + 500));
    assert.equal((await checkout.payment(payment.payment_id)).body.status, 'awaiting_payment');

    proxy.thaw();
    const paid = await eventually(
      'the payment once the node answers',
      async () => (await checkout.payment(payment.payment_id)).body,
      (p: Payment) => p.status === 'paid',
    );
    assert.ok(Date.parse(paid.transactions[0]!.seen_at) < Date.parse(payment.quote_expires_at), 'judged by its block’s time');
    await eventually('a new ETH payment', () => openOn('ETHEREUM', 'ETH'), (answer) => answer.status === 201);
  });

  it('counts a node stopped with SIGSTOP as unreachable within seconds, and takes payments again once it runs', async () => {
    chain.node.kill('SIGSTOP');
    try {
      await eventually('a new ETH payment', () => openOn('ETHEREUM', 'ETH'), (answer) => answer.status === 503);
    } finally {
      chain.node.kill('SIGCONT');
    }
    await eventually('a new ETH payment', () => openOn('ETHEREUM', 'ETH'), (answer) => answer.status === 201);
  });
});
