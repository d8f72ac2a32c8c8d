// Refunds paid out on an EVM node (anvil, mining only when told) from the sandbox merchant's payout wallet: ETH and the token
// claimed, signed (EIP-1559), followed to their confirmations and SUCCESS; a payout that reverts on chain FAILED with
// its amount back, and made again; a payout written down but never broadcast (as after a crash) sent once; a stuck one
// replaced with higher fees at the same nonce, and still paid once; a confirmed one that a reorganisation takes back
// PENDING again, sent again, and SUCCESS once more, paid once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseEip681 } from 'eth-url-parser';
import { parseTransaction, type Address, type Hex } from 'viem';
import { parseDecimal } from '../../src/codecs/amounts.js';
import { STUCK_MS } from '../../src/sandbox/chains/evm/node-chain.js';
import { payUri, useGatewayOnChain } from '../helpers/anvil.js';

import { checkoutApi, claimedRefund } from '../helpers/checkout.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

const ERC20_BALANCE = [{ type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'a', type: 'address' }], outputs: [{ type: 'uint256' }] }] as const;

describe(`refunds paid out on an EVM node (${storageName})`, () => {
  const { chain, gw, mine } = useGatewayOnChain({ payouts: true });
  async function paidOrder(asset: 'ETH' | 'USDT') {
    const link = await gw.client.createPaymentLink(sampleLink());
    const { body: payment } = await checkoutApi(gw.url, link.payment_link_ref).open(asset, 'ETHEREUM');
    await payUri(chain, parseEip681(payment.payment_uri));
    await mine(payment.confirmations_required);
    return (await gw.client.getPaymentLink(link.payment_link_ref)).merchant_order_id;
  }
  const claimed = (orderId: string, amount: number, address: string) => claimedRefund(gw.url, gw.client, orderId, amount, address);
  const balance = (asset: 'ETH' | 'USDT', address: Address) =>
    asset === 'ETH' ? chain.client.getBalance({ address }) : chain.client.readContract({ address: chain.token, abi: ERC20_BALANCE, functionName: 'balanceOf', args: [address] });
  const fresh = () => `0x${[...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, '0')).join('')}` as Address;
  const sentTo = async (to: Address, asset: 'ETH' | 'USDT') => {
    const hot = (await gw.gateway.payouts.walletAddress(gw.gateway.sandboxMerchant!.merchant_id, 'ETHEREUM')) as Address;
    const tip = await chain.client.getBlockNumber();
    let count = 0;
    for (let n = 0n; n <= tip; n++) {
      const block = await chain.client.getBlock({ blockNumber: n, includeTransactions: true });
      for (const tx of block.transactions) {
        if (tx.from.toLowerCase() !== hot.toLowerCase()) continue;
        const target = asset === 'ETH' ? tx.to : tx.input.length > 10 ? (`0x${tx.input.slice(34, 74)}` as Address) : undefined;
        if (target?.toLowerCase() === to.toLowerCase()) count++;
      }
    }
    return count;
  };

  for (const asset of ['ETH', 'USDT'] as const) {
    it(`pays a claimed ${asset} refund from the merchant's payout wallet, EIP-1559, SUCCESS once confirmed`, async () => {
      const orderId = await paidOrder(asset);
      const to = fresh();
      const refund = await claimed(orderId, 90_000, to);
      assert.deepEqual(refund.history.map((h) => h.event), ['requested', 'claimed']);
      await gw.gateway.payouts.follow();
      const sent = await gw.client.getRefund(refund.refund_id);
      assert.deepEqual(sent.history.map((h) => h.event), ['requested', 'claimed', 'sent']);
      const tx = await chain.client.getTransaction({ hash: sent.psp_refund_id as Hex });
      assert.equal(tx.type, 'eip1559');
      assert.equal(tx.from.toLowerCase(), (await gw.gateway.payouts.walletAddress(gw.gateway.sandboxMerchant!.merchant_id, 'ETHEREUM')).toLowerCase());
      await mine(2);
      assert.equal((await gw.client.getRefund(refund.refund_id)).refund_status, 'PENDING', '2 of 3 confirmations');
      await mine(1);
      const done = await gw.client.getRefund(refund.refund_id);
      assert.equal(done.refund_status, 'SUCCESS');
      assert.equal(await balance(asset, to), parseDecimal(done.amount_crypto, gw.gateway.networks.asset(asset, 'ETHEREUM').decimals));
    });
  }

  it('a payout that reverts on chain (ETH to a contract: out of gas) ends FAILED with its amount back, and is made again', async () => {
    const orderId = await paidOrder('ETH');
    const before = (await gw.client.getRefunds(orderId)).amountToRefund;
    const refund = await claimed(orderId, 50_000, chain.token);
    await gw.gateway.payouts.follow();
    await mine(3);
    const failed = await gw.client.getRefund(refund.refund_id);
    assert.equal(failed.refund_status, 'FAILED');
    assert.match(failed.failure_reason ?? '', /reverted on chain/);
    const receipt = await chain.client.getTransactionReceipt({ hash: failed.psp_refund_id as Hex });
    assert.equal(receipt.status, 'reverted', 'a real revert, on chain');
    assert.equal((await gw.client.getRefunds(orderId)).amountToRefund, before);
    const again = await gw.client.retryRefund(refund.refund_id);
    assert.equal(again.retry_of, refund.refund_id);
    assert.equal(again.destination, null, 'a new claim: the address was why it failed');
    const to = fresh();
    const { pathname, search } = new URL(again.claim_url!);
    await fetch(new URL(pathname + search, gw.url), { method: 'POST', body: new URLSearchParams({ address: to, confirm: 'yes' }) });
    await gw.gateway.payouts.follow();
    await mine(3);
    assert.equal((await gw.client.getRefund(again.refund_id)).refund_status, 'SUCCESS');
    assert.equal((await gw.client.getRefunds(orderId)).amountToRefund, before - 50_000);
  });

  it('sends a payout written down but never broadcast (a crash between the two) exactly once', async () => {
    const orderId = await paidOrder('USDT');
    const to = fresh();
    const refund = await claimed(orderId, 70_000, to);
    const port = gw.gateway.chains.payouts('ETHEREUM')!;
    const broadcast = port.broadcast.bind(port);
    port.broadcast = () => Promise.reject(new Error('the process died here'));
    await gw.gateway.payouts.follow();
    port.broadcast = broadcast;
    const signed = await gw.client.getRefund(refund.refund_id);
    assert.ok(signed.psp_refund_id, 'signed and written down');
    assert.equal(await chain.client.getTransaction({ hash: signed.psp_refund_id as Hex }).catch(() => undefined), undefined, 'the node never saw it');
    await gw.gateway.payouts.follow();
    await gw.gateway.payouts.follow();
    await mine(3);
    assert.equal((await gw.client.getRefund(refund.refund_id)).refund_status, 'SUCCESS');
    assert.equal(await sentTo(to, 'USDT'), 1, 'one transaction to the customer');
  });

  it('replaces a payout stuck without a block with higher fees at the same nonce, and pays it once', async () => {
    const orderId = await paidOrder('ETH');
    const to = fresh();
    const refund = await claimed(orderId, 40_000, to);
    await gw.gateway.payouts.follow();
    const first = (await gw.client.getRefund(refund.refund_id)).psp_refund_id as Hex;
    // No block comes (the node mines only when told) while its time passes.
    gw.clock.advance(STUCK_MS);
    await gw.gateway.payouts.follow();
    const replaced = await gw.client.getRefund(refund.refund_id);
    assert.notEqual(replaced.psp_refund_id, first);
    assert.deepEqual(replaced.history.map((h) => h.event), ['requested', 'claimed', 'sent', 'sent'], 'the replacement in the history');
    const raws = await gw.gateway.db.query<{ raw: Hex }>('SELECT raw FROM payout_transactions WHERE refund_id = $1 ORDER BY seq', [refund.refund_id]);
    const [old, bumped] = raws.map((r) => parseTransaction(r.raw));
    assert.equal(bumped!.nonce, old!.nonce, 'the same nonce');
    assert.ok(bumped!.maxFeePerGas! > old!.maxFeePerGas!, 'a higher fee');
    assert.ok(await chain.client.getTransaction({ hash: replaced.psp_refund_id as Hex }), 'the replacement is at the node');
    await mine(3);
    const done = await gw.client.getRefund(refund.refund_id);
    assert.equal(done.refund_status, 'SUCCESS');
    assert.equal(done.psp_refund_id, replaced.psp_refund_id);
    assert.equal(await sentTo(to, 'ETH'), 1);
  });

  it('a confirmed payout taken back by a reorganisation is PENDING again, sent again and paid once', async () => {
    const orderId = await paidOrder('ETH');
    const to = fresh();
    const refund = await claimed(orderId, 30_000, to);
    await gw.gateway.payouts.follow();
    await mine(3);
    const confirmed = await gw.client.getRefund(refund.refund_id);
    assert.equal(confirmed.refund_status, 'SUCCESS');
    // The payout's block and the two above it replaced by empty ones: anvil drops the transaction.
    await chain.client.request({ method: 'anvil_reorg', params: [3, []] } as never);
    await gw.gateway.watcher.follow('ETHEREUM');
    await gw.gateway.payouts.follow();
    const reopened = await gw.client.getRefund(refund.refund_id);
    assert.equal(reopened.refund_status, 'PENDING');
    assert.match(reopened.history.at(-1)!.detail ?? '', /reorganisation/);
    await gw.gateway.payouts.follow();
    await mine(3);
    const again = await gw.client.getRefund(refund.refund_id);
    assert.equal(again.refund_status, 'SUCCESS');
    assert.equal(again.psp_refund_id, confirmed.psp_refund_id, 'the same transaction');
    assert.equal(await sentTo(to, 'ETH'), 1, 'paid once');
  });

  it('refunds nothing of which was sent end FAILED when a reorganisation takes their payment\'s money back, and none can be made', async () => {
    const orderId = await paidOrder('USDT');
    const made = await gw.client.createRefund(orderId, { amount: 20_000, channel: 'PROVIDER', description: 'first', refund_type: 'partial', refund_reason: 'damaged' });
    await gw.client.createRefund(orderId, { amount: 10_000, channel: 'PROVIDER', description: 'second', refund_type: 'partial', refund_reason: 'damaged' });
    // The payment's block and the two above it replaced by empty ones: anvil drops its transaction.
    await chain.client.request({ method: 'anvil_reorg', params: [3, []] } as never);
    await gw.gateway.watcher.follow('ETHEREUM');
    const order = await gw.client.listRefunds(orderId);
    assert.equal(order.amountToRefund, 0);
    assert.equal(order.refunds.length, 2);
    for (const refund of order.refunds) {
      assert.equal(refund.refund_status, 'FAILED', refund.refund_id);
      assert.match(refund.failure_reason ?? '', /reorganisation.*nothing was sent/);
    }
    await assert.rejects(gw.client.retryRefund(made.refundDetails[0]!.refund_id), /holds 0 VND/);
  });
});
