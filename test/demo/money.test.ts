// What the portal shows of an order's money (demo/scripts/portal/money.ts), against what the gateway does: the
// crypto a refund form says goes back is what the chain then sends, to the address it names; held money is what
// the gateway holds, and an accept is offered exactly where the gateway takes one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { AssetCode, Network } from '../../src/contract/index.js';
import { formatAtomic } from '../../src/codecs/amounts.js';
import { canAccept, heldOf, holdings, refundPreview } from '../../demo/scripts/portal/money.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

const COINS: [AssetCode, Network][] = [
  ['USDT', 'TRON'],
  ['ETH', 'ETHEREUM'],
  ['BTC', 'BITCOIN'],
];

describe(`the portal's view of an order's money (${storageName})`, () => {
  const gw = useTestGateway({ reset: true });

  /** A link paid with `percent` % of its quote; `late` ends the quote first. Resolves with the order id. */
  async function pay(coin: [AssetCode, Network], percent: bigint, late: boolean): Promise<string> {
    const input = sampleLink();
    const { payment_link_ref: ref } = await gw.client.createPaymentLink(input);
    const [asset, network] = coin;
    const { payment } = await gw.gateway.customerCheckout.open(ref, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset, network });
    if (late) await gw.gateway.sandboxControls.expireQuote({ payment_id: payment.payment_id });
    const decimals = gw.gateway.networks.asset(asset, network).decimals;
    const [whole, fraction = ''] = payment.amount_crypto.split('.');
    const atomic = BigInt(whole! + fraction.padEnd(decimals, '0'));
    await gw.gateway.wallet.transfer({ to: payment.address, asset, network, amount: formatAtomic((atomic * percent) / 100n, decimals) });
    await gw.gateway.sandboxControls.mine(payment.confirmations_required, network);
    return input.merchant_order_id;
  }

  const sentOnChain = async (hash: string) =>
    (await gw.gateway.db.query<{ amount: string; to_address: string }>('SELECT amount_atomic::text AS amount, to_address FROM sim_transactions WHERE tx_hash = $1', [hash]))[0]!;

  it('says exactly what each refund sends back, to whom, over any sequence of refunds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...COINS),
        fc.constantFrom(100n, 137n),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 400_000 }), { minLength: 1, maxLength: 4 }),
        async (coin, percent, late, amounts) => {
          const orderId = await pay(coin, percent, late);
          for (const wanted of amounts) {
            const links = await gw.client.findPaymentLinks(orderId);
            const [source] = holdings(links).filter((h) => h.left > 0);
            if (!source) break;
            const amount = Math.min(wanted, source.left);
            const preview = refundPreview(source, amount, gw.gateway.networks.asset(source.payment.asset, source.payment.network).decimals, 'payer');
            const refund = gw.client.createRefund(orderId, {
              amount,
              channel: 'PROVIDER',
              description: 'property',
              refund_type: 'partial',
              refund_reason: 'property',
              payment_id: source.payment.payment_id,
              send_to: 'payer',
            });
            if ('problem' in preview) {
              await assert.rejects(refund, (error: { status: number }) => error.status === 422, `the gateway refuses it too: ${preview.problem}`);
              continue;
            }
            const { refundDetails } = await refund;
            const chain = await sentOnChain(refundDetails.at(-1)!.psp_refund_id);
            const decimals = gw.gateway.networks.asset(preview.asset, preview.network).decimals;
            assert.equal(formatAtomic(BigInt(chain.amount), decimals), preview.crypto, `${amount} VND of ${source.left}`);
            assert.equal(chain.to_address, preview.address);
            assert.equal(preview.address, gw.gateway.wallet.addresses[coin[1]], 'back to the sender');
          }
          const links = await gw.client.findPaymentLinks(orderId);
          assert.equal(holdings(links).reduce((sum, h) => sum + h.left, 0), (await gw.client.getRefunds(orderId)).amountToRefund, 'what is left, as the gateway counts it');
        },
      ),
      { numRuns: 8 },
    );
  });

  it('flags held money, and offers an accept exactly where the gateway takes one', async () => {
    const lateOrder = await pay(COINS[0]!, 100n, true);
    const [late] = await gw.client.findPaymentLinks(lateOrder);
    const [held] = holdings([late!]);
    assert.equal(heldOf(late!), 360_000, 'all of a late payment is held');
    assert.equal(canAccept(held!, [late!]), true);
    assert.deepEqual(refundPreview(held!, 1_000, undefined), {
      problem: `The gateway does not list ${held!.payment.asset} on ${held!.payment.network}: what goes back cannot be counted here.`,
    });
    await gw.client.acceptPayment(held!.payment.payment_id);
    const [accepted] = await gw.client.findPaymentLinks(lateOrder);
    assert.equal(heldOf(accepted!), 0, 'once accepted it pays the order');
    assert.equal(canAccept(holdings([accepted!])[0]!, [accepted!]), false);

    const overOrder = await pay(COINS[2]!, 137n, false);
    const [over] = await gw.client.findPaymentLinks(overOrder);
    const [paid] = holdings([over!]);
    assert.equal(paid!.payment.status, 'paid');
    assert.ok(heldOf(over!) > 100_000, 'the excess is held');
    assert.equal(paid!.left, 360_000 + heldOf(over!));
    assert.equal(canAccept(paid!, [over!]), false);
    await assert.rejects(gw.client.acceptPayment(paid!.payment.payment_id), (error: { status: number }) => error.status === 409);
    // Refunding the excess leaves the order's own amount, nothing held.
    await gw.client.createRefund(overOrder, { amount: heldOf(over!), channel: 'PROVIDER', description: 'excess', refund_type: 'partial', refund_reason: 'excess', payment_id: paid!.payment.payment_id });
    const [after] = await gw.client.findPaymentLinks(overOrder);
    assert.equal(heldOf(after!), 0);
    assert.equal(after!.amountToRefund, 360_000);
  });
});
