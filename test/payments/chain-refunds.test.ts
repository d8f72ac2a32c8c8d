// Refunds sent back on chain: cumulative shares of what arrived, so a series of partial refunds returns every
// atomic unit, and a refund too small to move one unit is refused with the least amount that would.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AssetCode, Network } from '../../src/contract/index.js';
import type { PayCheckoutApiError } from '../../src/merchant/index.js';
import { parseDecimal } from '../../src/codecs/amounts.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

// Sent to the address that paid: the coins leave at once, with no claim to wait for.
const refund = (amount: number) => ({ amount, channel: 'PROVIDER', description: 'returned', refund_type: 'partial', refund_reason: 'damaged', send_to: 'payer' }) as const;

describe(`refunds on chain (${storageName})`, () => {
  const gw = useTestGateway({ reset: true });

  async function paidOrder(asset: AssetCode, network: Network, decimals: number) {
    const link = await gw.client.createPaymentLink(sampleLink());
    const { body: payment } = await checkoutApi(gw.url, link.payment_link_ref).open(asset, network);
    await sandboxApi(gw.url).transfer(payment.address, asset, network, payment.amount_crypto);
    await sandboxApi(gw.url).mine(payment.confirmations_required, network);
    const orderId = (await gw.client.getPaymentLink(link.payment_link_ref)).merchant_order_id;
    const held = () => gw.gateway.chains.wallet(network)!.balance(asset, payment.address);
    return { orderId, paid: parseDecimal(payment.amount_crypto, decimals), held };
  }

  it('returns every atomic unit over partial refunds that do not divide evenly', async () => {
    const { orderId, paid, held } = await paidOrder('USDT', 'TRON', 6);
    assert.equal(await held(), paid);
    for (const amount of [60_000, 100_001, 99_999]) await gw.client.createRefund(orderId, refund(amount));
    assert.ok((await held()) > 0n);
    const list = await gw.client.createRefund(orderId, { ...refund(100_000), refund_type: 'full' });
    assert.equal(list.amountToRefund, 0);
    assert.equal(await held(), 0n, 'nothing stranded at the payment address');
  });

  it('refuses a refund too small to move one unit, naming the least amount that would', async () => {
    const { orderId, held } = await paidOrder('BTC', 'BITCOIN', 8);
    const before = await held();
    const error = await gw.client.createRefund(orderId, refund(1)).then(
      () => assert.fail('a 1 VND refund of a BTC payment moves nothing'),
      (e: unknown) => e as PayCheckoutApiError,
    );
    assert.equal(error.status, 422);
    const message = error.problem?.errors?.find((e) => e.path === 'amount')?.message ?? '';
    const least = Number(/at least (\d+) VND/.exec(message)?.[1]);
    assert.ok(least > 1, message);
    assert.equal(await held(), before, 'nothing sent');
    assert.equal((await gw.client.getRefunds(orderId)).refundDetails.length, 0, 'nothing stored');
    const list = await gw.client.createRefund(orderId, refund(least));
    assert.equal(list.refundDetails[0]!.refund_status, 'PENDING', 'sent, waiting for its confirmations');
    assert.ok(list.refundDetails[0]!.psp_refund_id);
    assert.ok((await held()) < before);
  });
});
