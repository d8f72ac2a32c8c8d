// Events about money on a real EVM node (anvil, mining only when told): each names the transfer as the node's own
// receipt and blocks show it (transaction hash, log index, block height and hash, the token's contract,
// confirmations), and a reorganisation that takes a paid payment's money back is an event naming the same facts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse as parseEip681 } from 'eth-url-parser';
import { getAddress, type Hex } from 'viem';
import type { EventTransfer, MerchantEventResource } from '../../src/contract/index.js';
import type { MerchantClient } from '../../src/merchant/index.js';
import { ethereumOn, payUri, startTestChain, type TestChain } from '../helpers/anvil.js';
import { checkoutApi } from '../helpers/checkout.js';
import { sampleLink, startTestGateway, storageName, type TestGateway } from '../helpers/gateway.js';
import { storedMerchant } from '../helpers/merchants.js';

async function all(client: MerchantClient, after?: string): Promise<MerchantEventResource[]> {
  const seen: MerchantEventResource[] = [];
  for await (const event of client.events.iterate({ after, limit: 100 })) seen.push(event);
  return seen;
}

describe(`events about money on an EVM node (${storageName})`, () => {
  let chain: TestChain;
  let gw: TestGateway;
  before(async () => {
    chain = await startTestChain();
    gw = await startTestGateway({ config: { networks: ethereumOn(chain) } });
  });
  after(async () => {
    await gw.close();
    await chain.stop();
  });

  async function mine(blocks = 1) {
    await chain.client.mine({ blocks });
    await gw.gateway.watcher.follow('ETHEREUM');
  }

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
});
