// Events about money on a real EVM node (anvil, mining only when told): each names the transfer as the node's own
// receipt and blocks show it (transaction hash, log index, block height and hash, the token's contract,
// confirmations), and a reorganisation that takes a paid payment's money back is an event naming the same facts. And
// the issue's acceptance run: a merchant whose receiver is down through EVENTS_RUN_MINIMUM payment events (paid,
// partial, late, refunded, a reorganisation on anvil) catches up through the events API, every event once, in order,
// with no gap, and the webhooks that finally arrive carry the same ids and sequences.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { performance } from 'node:perf_hooks';
import { parse as parseEip681 } from 'eth-url-parser';
import { getAddress, type Hex } from 'viem';
import type { EventTransfer, MerchantEventResource, WebhookEvent } from '../../src/contract/index.js';
import { verifyWebhook, type MerchantClient } from '../../src/merchant/index.js';
import { payUri, useGatewayOnChain } from '../helpers/anvil.js';

import { checkoutApi } from '../helpers/checkout.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { storedMerchant } from '../helpers/merchants.js';
import { startReceiver } from '../helpers/receiver.js';

/** How many events the acceptance run makes at least: about 150 in `npm test` (near 20 s), 1,000 in `npm run soak`. */
const RUN_MINIMUM = Number(process.env.EVENTS_RUN_MINIMUM ?? 150);
const TRON_USDT = { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' } as const;

async function all(client: MerchantClient, after?: string): Promise<MerchantEventResource[]> {
  const seen: MerchantEventResource[] = [];
  for await (const event of client.events.iterate({ after, limit: 100 })) seen.push(event);
  return seen;
}

describe(`events about money on an EVM node (${storageName})`, () => {
  const { chain, gw, mine } = useGatewayOnChain();

  /** The transfer as the node reports it: its receipt, the block it names, the node's tip. */
  async function onChain(hash: Hex, asset: 'ETH' | 'USDT', amount: string): Promise<EventTransfer> {
    const receipt = await chain.client.getTransactionReceipt({ hash });
    const tip = await chain.client.getBlockNumber();
    const log = asset === 'USDT' ? receipt.logs.find((l) => l.address.toLowerCase() === chain.token.toLowerCase()) : undefined;
    return {
      network: 'ETHEREUM',
      asset,
      tx_hash: receipt.transactionHash,
      log_index: log ? log.logIndex : null,
      block_height: Number(receipt.blockNumber),
      block_hash: receipt.blockHash,
      token_contract: log ? getAddress(log.address) : null,
      amount_crypto: amount,
      confirmations: Number(tip - receipt.blockNumber + 1n),
    };
  }

  for (const asset of ['ETH', 'USDT'] as const) {
    it(`names the ${asset} transfer as the node shows it: seen, then paid, then taken back by a reorganisation`, async () => {
      const { client } = await storedMerchant(gw, `Chain facts ${asset}`);
      const { payment_link_ref: ref } = await client.createPaymentLink(sampleLink());
      const { body: payment } = await checkoutApi(gw.url, ref).open(asset, 'ETHEREUM');
      const hash = await payUri(chain, parseEip681(payment.payment_uri));
      await gw.gateway.watcher.follow('ETHEREUM');
      await mine(payment.confirmations_required);
      const oracle = await onChain(hash, asset, payment.amount_crypto);
      // A token's log index is known only from its block: seen in the pool, the event names the transaction alone.
      const seen = { ...oracle, log_index: null, block_height: null, block_hash: null, confirmations: 0 };
      const [confirming, paid] = await all(client);
      assert.deepEqual([confirming?.type, confirming?.data.transfers], ['payment.confirming', [seen]]);
      assert.deepEqual([paid?.type, paid?.data.transfers], ['payment.paid', [oracle]]);
      if (asset === 'USDT') assert.equal(typeof oracle.log_index, 'number');

      await chain.client.request({ method: 'anvil_reorg', params: [payment.confirmations_required + 1, []] } as never);
      await gw.gateway.watcher.follow('ETHEREUM');
      const reorged = (await all(client, paid!.id)).find((e) => e.type === 'payment.reorged');
      assert.ok(reorged, 'a payment.reorged event');
      assert.equal(reorged.payment_id, payment.payment_id);
      assert.deepEqual(reorged.data.transfers, paid!.data.transfers, 'the reorganisation names the facts of the payment it takes back');
      // The node no longer has the block the events named.
      assert.notEqual((await chain.client.getBlock({ blockNumber: BigInt(oracle.block_height!) }).catch(() => undefined))?.hash, oracle.block_hash);
    });
  }

  it(`catches a merchant up after its receiver was down through ${RUN_MINIMUM}+ payment events, and the webhooks carry the same ids and sequences`, async (t) => {
    const started = performance.now();
    const { client } = await storedMerchant(gw, 'Receiver down');
    const receiver = await startReceiver();
    try {
      const { secret } = await client.addWebhookEndpoint(receiver.url);
      await receiver.stop();
      const { customerCheckout: checkout, wallet, sandboxControls: controls, webhookDispatcher: dispatcher } = gw.gateway;

      // On anvil: a USDT payment paid, then its block reorganised away (confirming, paid; then confirming again, its
      // transaction back to waiting for a block, and reorged).
      const { payment_link_ref: reorgRef } = await client.createPaymentLink(sampleLink({ merchant_order_id: 'run-reorg' }));
      const { body: onNode } = await checkoutApi(gw.url, reorgRef).open('USDT', 'ETHEREUM');
      await payUri(chain, parseEip681(onNode.payment_uri));
      await gw.gateway.watcher.follow('ETHEREUM');
      await mine(onNode.confirmations_required);
      let expected = 4;

      // On the simulated TRON, in twenties: 14 paid in full (confirming, paid), 3 partly (underpaid), 3 after their
      // quote ran out (expired, paid_late); every 8th fully paid one refunded to the payer (pending, succeeded).
      const kinds: ('paid' | 'partial' | 'late')[] = [];
      const refunded: number[] = [];
      for (let paid = 0; expected < RUN_MINIMUM; ) {
        const kind = kinds.length % 20 < 14 ? 'paid' : kinds.length % 20 < 17 ? 'partial' : 'late';
        if (kind === 'paid' && paid++ % 8 === 0) refunded.push(kinds.length);
        kinds.push(kind);
        expected += (kind === 'partial' ? 1 : 2) + (refunded.at(-1) === kinds.length - 1 ? 2 : 0);
      }
      const refs: string[] = [];
      for (const i of kinds.keys()) refs.push((await client.createPaymentLink(sampleLink({ merchant_order_id: `run-${i}` }))).payment_link_ref);
      const payments = await Promise.all(refs.map(async (ref) => (await checkout.open(ref, TRON_USDT)).payment));
      const confirmations = payments[0]!.confirmations_required;
      for (const [i, payment] of payments.entries()) {
        if (kinds[i] === 'late') await controls.expireQuote({ payment_id: payment.payment_id });
        const amount = kinds[i] === 'partial' ? (Number(payment.amount_crypto) / 2).toFixed(2) : payment.amount_crypto;
        await wallet.transfer({ to: payment.address, asset: 'USDT', network: 'TRON', amount });
        // Every so often a block, so that payments confirm while others are still arriving.
        if (i % 10 === 9) await controls.mine(confirmations, 'TRON');
      }
      await controls.mine(confirmations, 'TRON');
      for (const i of refunded) {
        await client.createRefund(`run-${i}`, { amount: 10_000, channel: 'PROVIDER', description: 'returned', refund_type: 'partial', refund_reason: 'damaged', send_to: 'payer' });
      }
      await controls.mine(confirmations, 'TRON');
      await chain.client.request({ method: 'anvil_reorg', params: [onNode.confirmations_required + 1, []] } as never);
      await gw.gateway.watcher.follow('ETHEREUM');
      // The receiver is down: each link's first delivery fails, the rest wait behind it.
      while ((await dispatcher.deliverDue()) > 0);

      const events = await all(client);
      assert.equal(events.length, expected, `${events.length} events: ${[...new Set(events.map((e) => e.type))].map((type) => `${type} ${events.filter((e) => e.type === type).length}`).join(', ')}`);
      assert.deepEqual(events.map((e) => e.sequence), events.map((_, i) => i + 1), 'sequences 1, 2, 3, … with no gap and no repeat');
      assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'no event twice');
      const types = new Set(events.map((e) => e.type));
      for (const type of ['payment.confirming', 'payment.paid', 'payment.underpaid', 'payment.expired', 'payment.paid_late', 'payment.reorged', 'refund.pending', 'refund.succeeded']) {
        assert.ok(types.has(type as WebhookEvent['type']), `a ${type} event`);
      }
      // Every payment event names its money, and the reorganisation the facts of the paid event it reverses.
      for (const e of events) assert.equal(Array.isArray(e.data.transfers), e.payment_id !== null, `${e.type} names its transfers`);
      const ofReorg = events.filter((e) => e.payment_id === onNode.payment_id);
      assert.deepEqual(ofReorg.find((e) => e.type === 'payment.reorged')?.data.transfers, ofReorg.find((e) => e.type === 'payment.paid')?.data.transfers);
      // Resuming from a stored id reads exactly the rest.
      const middle = events[Math.floor(events.length / 2)]!;
      assert.deepEqual((await all(client, middle.id)).map((e) => e.id), events.slice(events.indexOf(middle) + 1).map((e) => e.id));
      assert.deepEqual(await client.events.get(middle.id), middle);

      await receiver.start();
      for (let round = 0; receiver.received.length < events.length && round < 50; round++) {
        gw.clock.advance(3_600_000);
        while ((await dispatcher.deliverDue()) > 0);
      }
      const delivered = await Promise.all(receiver.received.map((r) => verifyWebhook(r.body, r.signature, secret, { now: gw.clock.now() })));
      const bySequence = (list: { id: string; sequence?: number }[]) => list.map((e) => [e.sequence, e.id]).sort((a, b) => Number(a[0]) - Number(b[0]));
      assert.deepEqual(bySequence(delivered), bySequence(events), 'every webhook once, with the id and sequence the API lists');
      // The API's event is the webhook's body, exactly.
      const byId = new Map(receiver.received.map((r) => [(JSON.parse(r.body) as WebhookEvent).id, JSON.parse(r.body) as unknown]));
      for (const event of events) assert.deepEqual(event, byId.get(event.id));
      t.diagnostic(`${events.length} events (${kinds.length} links on TRON, one on anvil) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      await receiver.stop();
    }
  });
});
