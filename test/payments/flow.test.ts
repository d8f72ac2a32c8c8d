// The crypto payment flow over HTTP only, as the element, the test wallet and a merchant drive it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Payment } from '../../src/contract/index.js';
import { verifyRedirect, verifyWebhook } from '../../src/merchant/index.js';
import { formatAtomic, parseDecimal } from '../../src/codecs/amounts.js';
import { parsePaymentUri } from '../../src/codecs/uri.js';
import { checkoutApi, followEvents, sandboxApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, sampleRefund, storageName } from '../helpers/gateway.js';

import { sandboxNetworks } from '../helpers/networks.js';
import { startReceiver } from '../helpers/receiver.js';

describe(`crypto payment flow over HTTP (${storageName})`, () => {
  const gw = useTestGateway({ reset: true });
  let sandbox: ReturnType<typeof sandboxApi>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    sandbox = sandboxApi(gw.url);
    receiver = await startReceiver();
  });
  after(() => receiver.stop());

  async function newLink(overrides = {}) {
    const link = await gw.client.createPaymentLink(sampleLink(overrides));
    return { ...link, checkout: checkoutApi(gw.url, link.payment_link_ref) };
  }

  /** What a wallet that scanned the QR sends: the address and amount of the URI, the typed amount for a bare address. */
  async function payFromQr(payment: Payment, amount?: string) {
    const parsed = parsePaymentUri(payment.payment_uri, sandboxNetworks.all);
    const decimals = payment.asset === 'ETH' ? 18 : payment.asset === 'BTC' ? 8 : 6;
    const send = amount ?? (parsed.atomic === undefined ? payment.remaining_crypto : formatAtomic(parsed.atomic, decimals));
    const sent = await sandbox.transfer(parsed.address, payment.asset, payment.network, send);
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    return sent.body.tx_hash;
  }

  it('create link → open payment → wallet pays from the URI → SSE confirming then paid → link paid → partial refund listed → merchant told', async () => {
    const { secret } = await gw.client.addWebhookEndpoint(receiver.url);
    const { payment_link_ref: ref, checkout } = await newLink({ merchant_order_id: 'flow-1' });
    const opened = await checkout.open('USDT', 'ETHEREUM');
    assert.equal(opened.status, 201);
    assert.equal(opened.body.status, 'awaiting_payment');
    assert.match(opened.body.payment_uri, /^ethereum:0x[0-9a-fA-F]{40}@11155111\/transfer\?address=0x[0-9a-fA-F]{40}&uint256=\d+$/);

    const events = followEvents(gw.url, ref);
    try {
      await events.next((p) => p.status === 'awaiting_payment');
      const txHash = await payFromQr(opened.body);
      const confirming = await events.next((p) => p.status === 'confirming');
      assert.deepEqual(confirming.transactions.map((t) => [t.tx_hash, t.confirmations]), [[txHash, 0]]);
      await sandbox.mine(opened.body.confirmations_required, 'ETHEREUM');
      const paid = await events.next((p) => p.status === 'paid');
      assert.equal(paid.remaining_crypto, '0');
      assert.equal(paid.received_crypto, opened.body.amount_crypto);
      assert.ok(paid.success_redirect_url?.startsWith('https://shop.example/success?'));
      const statuses = events.seen.map((e) => e.payment.status);
      assert.ok(statuses.indexOf('confirming') < statuses.indexOf('paid'), statuses.join());
    } finally {
      events.close();
    }

    assert.equal((await checkout.view()).body.status, 'paid');
    const balanceBefore = await walletUsdtEth();
    const refunds = await gw.client.createRefund('flow-1', sampleRefund(100_000, { send_to: 'payer' }));
    assert.equal(refunds.amountToRefund, 260_000);
    assert.equal(refunds.refundDetails.length, 1);
    const [refund] = refunds.refundDetails;
    assert.equal(refund!.refund_status, 'PENDING', 'sent, waiting for its confirmations');
    assert.match(refund!.psp_refund_id, /^0x[0-9a-f]{64}$/);
    // The refund went back on chain to the wallet that paid: 100,000 of 360,000 VND of the crypto amount.
    const expected = (parseDecimal(opened.body.amount_crypto, 6) * 100_000n) / 360_000n;
    assert.equal(await walletUsdtEth(), balanceBefore + expected);
    assert.deepEqual((await gw.client.getRefunds('flow-1')).refundDetails, refunds.refundDetails);

    // The merchant's server learns the truth twice over: a signed webhook, and a redirect that verifies.
    await gw.deliverAll();
    const received = await Promise.all(receiver.received.map((r) => verifyWebhook(r.body, r.signature, secret, { now: gw.clock.now() })));
    const paidEvent = received.find((e) => e.type === 'payment.paid');
    assert.equal(paidEvent?.payment_id, opened.body.payment_id);
    assert.equal(paidEvent?.data.payment_link.status, 'paid');
    const { body: paidPayment } = await checkout.payment(opened.body.payment_id);
    assert.deepEqual(await verifyRedirect(paidPayment.success_redirect_url!, gw.credentials.clientSecret), {
      merchant_order_id: 'flow-1',
      payment_link_ref: ref,
      status: 'paid',
    });
  });

  async function walletUsdtEth(): Promise<bigint> {
    const { body } = await sandbox.wallet();
    return parseDecimal(body.balances.find((b) => b.asset === 'USDT' && b.network === 'ETHEREUM')!.balance, 6);
  }

  it("shows the customer the order but none of the merchant's secrets, to any origin", async () => {
    const { payment_link_ref: ref } = await newLink({ shipping_details: { shipping_name: 'Trần Văn Minh' }, show_shipping_details: false });
    const response = await fetch(`${gw.url}/api/checkout/${ref}`, { headers: { Origin: 'https://shop.example' } });
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    const text = await response.text();
    const { clientSecret, merchantKey, clientId } = gw.credentials;
    for (const secret of [clientSecret, merchantKey, clientId, 'svc_key', 'signature_hash']) assert.ok(!text.includes(secret), `the view holds ${secret}`);
    const view = JSON.parse(text) as { shipping_details?: unknown; amount: number; payment: unknown };
    assert.equal(view.amount, 360_000);
    assert.equal(view.payment, null);
    assert.equal(view.shipping_details, undefined, 'shipping details only when the link shows them');
  });

  it("lets any origin read the checkout API's problems too, and answers its preflight", async () => {
    const missing = await fetch(`${gw.url}/api/checkout/pl_missing`, { headers: { Origin: 'https://shop.example' } });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('access-control-allow-origin'), '*');
    const { payment_link_ref: ref } = await newLink();
    const refused = await fetch(`${gw.url}/api/checkout/${ref}/payments`, {
      method: 'POST',
      headers: { Origin: 'https://shop.example', 'Content-Type': 'application/json' },
      body: JSON.stringify({ asset: 'DOGE', network: 'TRON' }),
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.headers.get('access-control-allow-origin'), '*');
    const preflight = await fetch(`${gw.url}/api/checkout/${ref}/payments`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /content-type/i);
  });

  it('returns the open payment when opened again: one address per link, never a second', async () => {
    const { checkout } = await newLink();
    const first = await checkout.open('BTC', 'BITCOIN');
    const again = await checkout.open('BTC', 'BITCOIN');
    assert.deepEqual([first.status, again.status], [201, 200]);
    assert.equal(again.body.payment_id, first.body.payment_id);
    assert.equal(again.body.address, first.body.address);
    assert.equal((await checkout.view()).body.payment?.address, first.body.address);
    assert.match(first.body.payment_uri, /^bitcoin:tb1q[02-9ac-hj-np-z]{38,58}\?amount=\d+(\.\d{1,8})?$/);
  });

  it('asks for the rest at the same address after a partial payment, then is paid', async () => {
    const { checkout } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    assert.equal(payment.payment_uri, payment.address, 'TRON QR holds the bare address');
    const half = formatAtomic(parseDecimal(payment.amount_crypto, 6) / 2n, 6);
    await payFromQr(payment, half);
    await sandbox.mine(payment.confirmations_required, 'TRON');
    const underpaid = (await checkout.payment(payment.payment_id)).body;
    assert.equal(underpaid.status, 'underpaid');
    assert.equal(underpaid.address, payment.address);
    assert.equal(parseDecimal(underpaid.remaining_crypto, 6) + parseDecimal(half, 6), parseDecimal(payment.amount_crypto, 6));
    await payFromQr(underpaid);
    assert.equal((await checkout.payment(payment.payment_id)).body.status, 'confirming');
    await sandbox.mine(payment.confirmations_required, 'TRON');
    assert.equal((await checkout.payment(payment.payment_id)).body.status, 'paid');
    assert.equal((await checkout.view()).body.status, 'paid');
  });

  it('asks for the rest in the QR amount when the URI carries one', async () => {
    const { checkout } = await newLink();
    const { body: payment } = await checkout.open('ETH', 'ETHEREUM');
    const wei = parseDecimal(payment.amount_crypto, 18);
    const sent = wei / 3n;
    await sandbox.transfer(payment.address, 'ETH', 'ETHEREUM', formatAtomic(sent, 18));
    const { body: after } = await checkout.payment(payment.payment_id);
    assert.equal(parsePaymentUri(after.payment_uri, sandboxNetworks.all).atomic, wei - sent);
    assert.equal(after.remaining_crypto, formatAtomic(wei - sent, 18));
  });

  it('flags an overpayment', async () => {
    const { checkout } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    await payFromQr(payment, formatAtomic(parseDecimal(payment.amount_crypto, 6) + 1_000_000n, 6));
    await sandbox.mine(payment.confirmations_required, 'TRON');
    const { body: paid } = await checkout.payment(payment.payment_id);
    assert.deepEqual([paid.status, paid.overpaid], ['paid', true]);
  });

  it('expires the quote, then gives a new quote as a new payment at a new address; coins sent to the old one are held', async () => {
    const { checkout } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    const expired = await sandbox.expireQuote(payment.payment_id);
    assert.equal(expired.body.status, 'expired');
    gw.clock.advance(1000);
    const requoted = await checkout.open('USDT', 'TRON');
    assert.equal(requoted.status, 201);
    assert.notEqual(requoted.body.payment_id, payment.payment_id);
    assert.notEqual(requoted.body.address, payment.address);
    assert.equal(requoted.body.status, 'awaiting_payment');
    await payFromQr(requoted.body);
    await payFromQr(payment, payment.amount_crypto);
    await sandbox.mine(requoted.body.confirmations_required, 'TRON');
    assert.equal((await checkout.payment(requoted.body.payment_id)).body.status, 'paid');
    const old = (await checkout.payment(payment.payment_id)).body;
    assert.deepEqual([old.status, old.held_vnd], ['paid_late', payment.amount_vnd], 'held for the merchant, never credited at the old rate');
    assert.equal((await checkout.view()).body.status, 'paid');
  });

  it('holds a full payment made after the quote ran out as paid_late, and the link stays unpaid', async () => {
    const { checkout } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    await sandbox.expireQuote(payment.payment_id);
    gw.clock.advance(1000);
    await payFromQr(payment, payment.amount_crypto);
    assert.equal((await checkout.payment(payment.payment_id)).body.status, 'expired');
    await sandbox.mine(payment.confirmations_required, 'TRON');
    assert.equal((await checkout.payment(payment.payment_id)).body.status, 'paid_late');
    assert.equal((await checkout.view()).body.status, 'active');
    assert.equal((await checkout.open('USDT', 'TRON')).status, 409);
  });

  it('never locks a quote past the link expiry, and refuses payments on an expired link', async () => {
    const { checkout } = await newLink({ expiry_hours: 1 });
    gw.clock.advance(3_600_000 - 60_000);
    const { body: payment } = await checkout.open('USDT', 'TRON');
    assert.equal((await checkout.view()).body.expires_at, payment.quote_expires_at);
    gw.clock.advance(60_000);
    assert.equal((await checkout.view()).body.status, 'expired');
    assert.equal((await checkout.open('USDT', 'TRON')).status, 410);
  });

  it('gives a new address when the customer switches assets, quoted for what the money already sent leaves', async () => {
    const { checkout } = await newLink();
    const amount = sampleLink().amount;
    const tron = await checkout.open('USDT', 'TRON');
    const btc = await checkout.open('BTC', 'BITCOIN');
    assert.equal(btc.status, 201);
    assert.notEqual(btc.body.address, tron.body.address);
    assert.equal((await checkout.payment(tron.body.payment_id)).body.status, 'expired');
    assert.equal(btc.body.amount_vnd, amount, 'nothing was sent to the first quote');

    await payFromQr(btc.body, '0.00001');
    gw.clock.advance(1000);
    const usdt = await checkout.open('USDT', 'TRON');
    assert.equal(usdt.status, 201);
    const partial = (await checkout.payment(btc.body.payment_id)).body;
    assert.deepEqual([partial.status, partial.credited_vnd], ['expired', 0], 'credited once confirmed');
    const received = (await checkout.view()).body.received_vnd;
    assert.ok(received > 0 && received < amount, `received ${received}`);
    assert.equal(usdt.body.amount_vnd, amount - received);

    await payFromQr(usdt.body);
    await sandbox.mine(Math.max(usdt.body.confirmations_required, btc.body.confirmations_required), 'TRON');
    await sandbox.mine(btc.body.confirmations_required, 'BITCOIN');
    const view = (await checkout.view()).body;
    assert.equal(view.status, 'paid');
    const [paidBtc, paidUsdt] = [(await checkout.payment(btc.body.payment_id)).body, (await checkout.payment(usdt.body.payment_id)).body];
    assert.equal(paidUsdt.status, 'paid');
    assert.equal(paidBtc.credited_vnd, received);
    assert.equal(paidBtc.credited_vnd + paidUsdt.credited_vnd, amount, 'the two payments together pay the order, once');
    assert.deepEqual([paidBtc.held_vnd, paidUsdt.held_vnd], [0, 0]);
  });

  it("quotes the rest when a partial payment's quote ran out, and the rest pays the link", async () => {
    const { checkout } = await newLink();
    const amount = sampleLink().amount;
    const { body: first } = await checkout.open('USDT', 'ETHEREUM');
    const half = formatAtomic(parseDecimal(first.amount_crypto, 6) / 2n, 6);
    await payFromQr(first, half);
    await sandbox.mine(first.confirmations_required, 'ETHEREUM');
    gw.clock.advance(1000);
    await sandbox.expireQuote(first.payment_id);
    gw.clock.advance(1000);
    const expired = (await checkout.payment(first.payment_id)).body;
    assert.equal(expired.status, 'expired');
    assert.ok(expired.credited_vnd > 0 && expired.held_vnd === 0, JSON.stringify(expired));

    const { status, body: rest } = await checkout.open('USDT', 'ETHEREUM');
    assert.equal(status, 201);
    assert.notEqual(rest.address, first.address);
    assert.equal(rest.amount_vnd, amount - expired.credited_vnd);
    await payFromQr(rest);
    await sandbox.mine(rest.confirmations_required, 'ETHEREUM');
    assert.equal((await checkout.payment(rest.payment_id)).body.status, 'paid');
    assert.equal((await checkout.view()).body.status, 'paid');
    assert.equal((await checkout.open('USDT', 'ETHEREUM')).status, 409);
  });

  it('quotes 1 VND and 5,000,000,000 VND in every asset as positive whole atomic amounts', async () => {
    for (const amount of [1, 5_000_000_000]) {
      for (const [asset, network] of [['USDT', 'TRON'], ['USDT', 'ETHEREUM'], ['ETH', 'ETHEREUM'], ['BTC', 'BITCOIN']] as const) {
        const { checkout } = await newLink({ amount, order_details: [{ id: 'x', name: 'x', price: amount, quantity: 1 }], merchant_details: {} });
        const { body } = await checkout.open(asset, network);
        assert.match(body.amount_crypto, /^\d+(\.\d+)?$/);
        assert.ok(parseDecimal(body.amount_crypto, asset === 'ETH' ? 18 : asset === 'BTC' ? 8 : 6) > 0n);
        assert.equal(body.amount_vnd, amount);
      }
    }
  });

  it('answers an unknown link with 404 problem details and a bad payment request with 422 naming the field', async () => {
    const unknown = checkoutApi(gw.url, 'pl_unknown');
    assert.equal((await unknown.view()).status, 404);
    const { checkout } = await newLink();
    const bad = await checkout.open('USDT', 'BITCOIN');
    assert.equal(bad.status, 422);
    assert.deepEqual((bad.body as unknown as { errors: { path: string }[] }).errors.map((e) => e.path), ['network']);
  });
});
