// Two gateway processes on one PostgreSQL: 50 refunds of one order asked for at once, through either process, and
// each claimed (through the other) as soon as it exists, or sent to the payer. However they interleave, the refunds
// that did not fail never add up to more than the order holds, the coins sent back never exceed the coins received,
// and every payout transaction belongs to exactly one refund.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseDecimal } from '../../src/codecs/amounts.js';
import type { Payment, RefundResource } from '../../src/contract/index.js';
import { MerchantClient } from '../../src/merchant/index.js';
import { loadConfig } from '../../src/sandbox/config.js';
import { sampleLink } from '../helpers/gateway.js';
import { GatewaySystem } from '../helpers/payment-model.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const { sandboxMerchant } = loadConfig({});
const REFUNDS = 50;

describe('refunds and claims racing on two gateway processes over one PostgreSQL', () => {
  let system: GatewaySystem;
  before(async () => {
    system = await GatewaySystem.start(databaseUrl);
  });
  after(() => system?.close());

  it('never pays out more than the order holds, nor any payout twice', async () => {
    const [first, second] = system.urls() as [string, string];
    const clients = [first, second].map((baseUrl) => new MerchantClient({ baseUrl, clientId: sandboxMerchant.clientId, clientSecret: sandboxMerchant.clientSecret, merchantKey: sandboxMerchant.merchantKey }));
    const post = async <T>(url: string, body: unknown) =>
      (await (await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json()) as T;
    const link = await clients[0]!.createPaymentLink(sampleLink());
    const payment = await post<Payment>(`${first}/api/checkout/${link.payment_link_ref}/payments`, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' });
    await post(`${first}/sandbox/wallet/transfers`, { to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto });
    await post(`${first}/sandbox/chain/mine`, { blocks: payment.confirmations_required, network: 'TRON' });
    const orderId = (await clients[0]!.getPaymentLink(link.payment_link_ref)).merchant_order_id;
    const wallet = ((await (await fetch(`${first}/sandbox/wallet`)).json()) as { addresses: Record<string, string> }).addresses.TRON!;

    // 50 refunds of 9,000–15,860 VND: about 620,000 VND asked of the 360,000 paid.
    const answers = await Promise.allSettled(
      Array.from({ length: REFUNDS }, async (_, i) => {
        const list = await clients[i % 2]!.createRefund(orderId, {
          amount: 9_000 + ((i * 37) % 50) * 140,
          channel: 'PROVIDER',
          description: `race ${i}`,
          refund_type: 'partial',
          refund_reason: 'race',
          ...(i % 5 === 0 && { send_to: 'payer' as const }),
        });
        const mine = list.refundDetails.find((r) => r.refund_reason === 'race' && r.claim_url && !r.psp_refund_id);
        if (!mine?.claim_url) return;
        // Claimed through the other process, while the others still race.
        const { pathname, search } = new URL(mine.claim_url);
        await fetch(`${[first, second][(i + 1) % 2]}${pathname}${search}`, { method: 'POST', body: new URLSearchParams({ address: wallet, confirm: 'yes' }) });
      }),
    );
    for (const answer of answers) if (answer.status === 'rejected') assert.ok([409, 422].includes((answer.reason as { status: number }).status), String(answer.reason));
    assert.ok(answers.some((a) => a.status === 'rejected'), 'some were refused: more was asked than the order holds');

    // The payouts confirm on the blocks that keep coming (every 300 ms).
    let refunds: RefundResource[] = [];
    for (let i = 0; i < 100; i++) {
      ({ refunds } = await clients[1]!.listRefunds(orderId));
      if (refunds.every((r) => r.refund_status !== 'PENDING' || !r.destination)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const live = refunds.filter((r) => r.refund_status !== 'FAILED');
    const vnd = live.reduce((sum, r) => sum + r.amount, 0);
    assert.ok(vnd <= 360_000, `refunded ${vnd} VND of 360,000`);
    assert.equal((await clients[0]!.getRefunds(orderId)).amountToRefund, 360_000 - vnd);
    const sent = live.filter((r) => r.psp_refund_id);
    assert.equal(new Set(sent.map((r) => r.psp_refund_id)).size, sent.length, 'each payout transaction belongs to one refund');
    const coins = sent.reduce((sum, r) => sum + parseDecimal(r.amount_crypto, 6), 0n);
    assert.ok(coins <= parseDecimal(payment.amount_crypto, 6), `${coins} sent of ${payment.amount_crypto} USDT received`);
    assert.ok(sent.some((r) => r.refund_status === 'SUCCESS'), 'payouts confirmed');
  });
});
