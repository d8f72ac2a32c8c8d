// The gateway watching a real EVM node (anvil, mining only when told): payments in ETH and in a 6-decimal ERC-20 paid
// by a wallet that reads the QR's EIP-681 URI with a third-party parser, confirmations counted block by block,
// reorganisations (with and without a double-spend), money forwarded by a contract, and a paid payment whose block
// leaves the chain told to the merchant.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { parse as parseEip681 } from 'eth-url-parser';
import type { Address } from 'viem';
import type { Payment, WebhookEvent } from '../../src/contract/index.js';
import { Forwarder } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { payUri, useGatewayOnChain } from '../helpers/anvil.js';

import { checkoutApi, followEvents } from '../helpers/checkout.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { startReceiver } from '../helpers/receiver.js';

describe(`the gateway on an EVM node (${storageName})`, () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver();
  });
  // Its timers do not run here: each step is the test's.
  const { chain, gw, mine } = useGatewayOnChain({ gateway: () => ({ config: { sandboxWebhookUrl: receiver.url } }) });
  after(() => receiver.stop());
  beforeEach(() => void receiver.received.splice(0));

  async function open(asset: 'ETH' | 'USDT') {
    const link = await gw.client.createPaymentLink(sampleLink());
    const checkout = checkoutApi(gw.url, link.payment_link_ref);
    const { status, body } = await checkout.open(asset, 'ETHEREUM');
    assert.equal(status, 201, JSON.stringify(body));
    return { ref: link.payment_link_ref, checkout, payment: body };
  }
  async function status(checkout: ReturnType<typeof checkoutApi>, payment: Payment) {
    const { body } = await checkout.payment(payment.payment_id);
    return body;
  }

  for (const asset of ['ETH', 'USDT'] as const) {
    it(`takes ${asset} paid from the QR's EIP-681 URI, paid after exactly the configured confirmations`, async () => {
      const { checkout, payment } = await open(asset);
      const uri = parseEip681(payment.payment_uri);
      assert.equal(uri.chain_id, '11155111');
      await payUri(chain, uri);
      await gw.gateway.watcher.follow('ETHEREUM');
      const waiting = await status(checkout, payment);
      assert.deepEqual([waiting.status, waiting.received_crypto, waiting.transactions[0]?.confirmations], ['confirming', payment.amount_crypto, 0], 'seen before its block');
      for (let confirmations = 1; confirmations < payment.confirmations_required; confirmations++) {
        await mine();
        const seen = await status(checkout, payment);
        assert.deepEqual([seen.status, seen.transactions[0]?.confirmations], ['confirming', confirmations]);
      }
      await mine();
      const paid = await status(checkout, payment);
      assert.deepEqual([paid.status, paid.transactions[0]?.confirmations, paid.received_crypto], ['paid', payment.confirmations_required, payment.amount_crypto]);
      assert.equal((await checkout.view()).body.status, 'paid');
    });
  }

  it('takes the payment back when its block is reorganised away at one confirmation, and the stream shows it', async () => {
    const { ref, checkout, payment } = await open('ETH');
    const events = followEvents(gw.url, ref);
    try {
      await payUri(chain, parseEip681(payment.payment_uri));
      await mine();
      await events.next((p) => p.status === 'confirming' && p.transactions[0]?.confirmations === 1);
      // The block leaves the chain, and anvil drops its transaction (a real node would put it back in its pool).
      await chain.client.request({ method: 'anvil_reorg', params: [1, []] } as never);
      await gw.gateway.watcher.follow('ETHEREUM');
      const back = await events.next((p) => p.status === 'awaiting_payment');
      assert.deepEqual([back.received_crypto, back.transactions], ['0', []]);
      assert.equal((await status(checkout, payment)).status, 'awaiting_payment');
    } finally {
      events.close();
    }
  });

  it('ends underpaid when a double-spend replaces the transfer that completed it', async () => {
    const { checkout, payment } = await open('ETH');
    const due = BigInt(parseEip681(payment.payment_uri).parameters!.value!);
    const part = due / 2n;
    await chain.client.sendTransaction({ account: chain.customer, chain: null, to: payment.address as Address, value: part });
    await mine(3);
    assert.equal((await status(checkout, payment)).status, 'underpaid');
    const rest = await chain.client.sendTransaction({ account: chain.customer, chain: null, to: payment.address as Address, value: due - part });
    await mine();
    assert.equal((await status(checkout, payment)).status, 'confirming');
    // The same coins, spent again in the replacing block: to another address.
    const nonce = (await chain.client.getTransaction({ hash: rest })).nonce;
    const replacement = { from: chain.customer, to: chain.other, value: `0x${(due - part).toString(16)}`, nonce: `0x${nonce.toString(16)}` };
    await chain.client.request({ method: 'anvil_reorg', params: [1, [[replacement, 0]]] } as never);
    await gw.gateway.watcher.follow('ETHEREUM');
    const after = await status(checkout, payment);
    assert.deepEqual([after.status, after.transactions.length], ['underpaid', 1]);
    assert.equal(after.transactions.some((t) => t.tx_hash === rest), false);
  });

  it('tells the merchant when a paid payment’s block leaves the chain, deeper than its confirmations', async () => {
    const { ref, checkout, payment } = await open('USDT');
    await payUri(chain, parseEip681(payment.payment_uri));
    await mine(payment.confirmations_required + 1);
    assert.equal((await status(checkout, payment)).status, 'paid');
    await chain.client.request({ method: 'anvil_reorg', params: [payment.confirmations_required + 1, []] } as never);
    await gw.gateway.watcher.follow('ETHEREUM');
    await gw.deliverAll();
    const reorged = receiver.received.map((r) => JSON.parse(r.body) as WebhookEvent).find((e) => e.type === 'payment.reorged');
    assert.ok(reorged, `a payment.reorged webhook (got ${receiver.types().join(', ')})`);
    assert.equal(reorged.payment_id, payment.payment_id);
    const link = await gw.client.getPaymentLink(ref);
    assert.deepEqual([link.status, link.payments[0]!.status], ['active', 'awaiting_payment']);
    assert.ok(link.payments[0]!.reorged_at, 'the payment says a reorganisation took its money back');
  });

  it('takes back a paid payment whose confirmations a rewind takes away, though its own block stays, and tells the merchant', async () => {
    const { ref, checkout, payment } = await open('ETH');
    await payUri(chain, parseEip681(payment.payment_uri));
    await mine(payment.confirmations_required);
    assert.equal((await status(checkout, payment)).status, 'paid');
    // The blocks after the payment's own go: it has one confirmation left.
    await chain.client.request({ method: 'anvil_rollback', params: [payment.confirmations_required - 1] } as never);
    await gw.gateway.watcher.follow('ETHEREUM');
    const back = await status(checkout, payment);
    assert.deepEqual([back.status, back.transactions[0]?.confirmations, Boolean(back.reorged_at)], ['confirming', 1, true]);
    await gw.deliverAll();
    assert.ok(receiver.types().includes('payment.reorged'), `a payment.reorged webhook (got ${receiver.types().join(', ')})`);
    await mine(payment.confirmations_required - 1);
    assert.equal((await gw.client.getPaymentLink(ref)).status, 'paid', 'paid again once confirmed again');
  });

  it('credits ETH that reaches the address through a contract (an exchange’s withdrawal), not a top-level transfer', async () => {
    const { checkout, payment } = await open('ETH');
    const value = BigInt(parseEip681(payment.payment_uri).parameters!.value!);
    await chain.client.writeContract({
      account: chain.customer,
      chain: null,
      address: chain.forwarder,
      abi: Forwarder.abi,
      functionName: 'forward',
      args: [payment.address as Address],
      value,
    });
    await mine(payment.confirmations_required);
    const paid = await status(checkout, payment);
    assert.deepEqual([paid.status, paid.received_crypto], ['paid', payment.amount_crypto]);
  });

  it('says where the node is and that it can be seen', async () => {
    const { body } = await (await fetch(`${gw.url}/sandbox/chain`)).json().then((body) => ({ body }));
    const ethereum = (body as { networks: { network: string; source: string; rpc_url: string; chain_id: number; available: boolean }[] }).networks.find(
      (n) => n.network === 'ETHEREUM',
    )!;
    assert.deepEqual([ethereum.source, ethereum.rpc_url, ethereum.chain_id], ['node', new URL(chain.rpcUrl).origin, 11155111]);
  });
});
