// Refunds that reach the customer: PENDING with a claim link; the gateway's claim page (amount in its HTML, one form,
// the address checked for the network); the payout on chain followed to SUCCESS; a cancelled or lapsed claim FAILED
// with its VND refundable again; a failed refund made again. docs/payment-lifecycle.md, "Refunds".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDecimal } from '../../src/codecs/amounts.js';
import { toChecksumAddress } from '../../src/codecs/addresses.js';
import type { AssetCode, CreateRefundRequest, Network, RefundResource } from '../../src/contract/index.js';
import type { PayCheckoutApiError } from '../../src/merchant/index.js';
import { refundById, setRefundDestination } from '../../src/sandbox/storage/refunds.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

const refund = (amount: number, extra: Partial<CreateRefundRequest> = {}): CreateRefundRequest => ({
  amount,
  channel: 'PROVIDER',
  description: 'Hoàn tiền một gói cà phê bị vỡ',
  refund_type: 'partial',
  refund_reason: 'damaged',
  ...extra,
});

const DAY_S = 86_400;

describe(`refund claims and payouts (${storageName})`, () => {
  const gw = useTestGateway({ config: { refundClaimTtlSeconds: DAY_S }, reset: true });

  async function paidOrder(asset: AssetCode = 'USDT', network: Network = 'TRON') {
    const link = await gw.client.createPaymentLink(sampleLink());
    const { body: payment } = await checkoutApi(gw.url, link.payment_link_ref).open(asset, network);
    await sandboxApi(gw.url).transfer(payment.address, asset, network, payment.amount_crypto);
    await sandboxApi(gw.url).mine(payment.confirmations_required, network);
    const orderId = (await gw.client.getPaymentLink(link.payment_link_ref)).merchant_order_id;
    return { orderId, ref: link.payment_link_ref, payment };
  }
  /** Creates one refund and answers it as the merchant sees it. */
  async function refundOf(orderId: string, amount: number, extra: Partial<CreateRefundRequest> = {}): Promise<RefundResource> {
    const list = await gw.client.createRefund(orderId, refund(amount, extra));
    return gw.client.getRefund(list.refundDetails.at(-1)!.refund_id);
  }
  /** A claim URL (on CHECKOUT_URL's origin, which tests leave at its default) at the test gateway's own port. */
  const page = async (url: string, init?: RequestInit) => {
    const { pathname, search } = new URL(url);
    const response = await fetch(new URL(pathname + search, gw.url), init);
    return { status: response.status, headers: response.headers, html: await response.text() };
  };
  const claim = (claimUrl: string, form: Record<string, string>) =>
    page(claimUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  const mine = (blocks: number, network: Network) => sandboxApi(gw.url).mine(blocks, network);
  const walletAddress = (network: Network) => gw.gateway.wallet.addresses[network]!;
  const balance = (network: Network, asset: AssetCode, address: string) => gw.gateway.chains.wallet(network)!.balance(asset, address);

  for (const [asset, network] of [
    ['USDT', 'TRON'],
    ['USDT', 'ETHEREUM'],
    ['ETH', 'ETHEREUM'],
  ] as const) {
    it(`a claimed ${asset} refund on ${network} is paid out to the customer's address and is SUCCESS once confirmed`, async () => {
      const { orderId, payment } = await paidOrder(asset, network);
      const made = await refundOf(orderId, 60_000);
      assert.equal(made.refund_status, 'PENDING');
      assert.equal(made.destination, null);
      assert.deepEqual(made.history.map((h) => h.event), ['requested']);
      const { decimals } = gw.gateway.networks.asset(asset, network);
      // The rule: the payment's confirmed coins in the share 60,000 VND is of what they are worth to the order.
      const coins = (parseDecimal(made.payment_received_crypto, decimals) * 60_000n) / BigInt(made.payment_value_vnd);
      assert.equal(parseDecimal(made.amount_crypto, decimals), coins);
      assert.equal(made.payment_value_vnd, 360_000, 'paid exactly: worth the order');
      assert.equal(parseDecimal(made.payment_received_crypto, decimals), parseDecimal(payment.amount_crypto, decimals));

      const shown = await page(made.claim_url!);
      assert.equal(shown.status, 200);
      assert.match(shown.headers.get('content-security-policy') ?? '', /form-action 'self'/);
      assert.doesNotMatch(shown.html, /<script/i);
      // In the link's language (vi), the amount in VND and in the coin in the HTML itself.
      assert.match(shown.html, /<html lang="vi">/);
      assert.ok(shown.html.includes(new Intl.NumberFormat('vi-VN', { style: 'currency', currency: 'VND' }).format(60_000)), 'the VND amount');
      assert.ok(shown.html.includes(`data-amount-crypto="${made.amount_crypto}"`));
      // One form: the address, a confirmation box, one submit button.
      assert.equal(shown.html.match(/<form/g)?.length, 1);
      assert.deepEqual(
        [...shown.html.matchAll(/<(input|button)\b[^>]*>/g)].map((m) => /type="(\w+)"/.exec(m[0])?.[1]),
        ['text', 'checkbox', 'submit'],
      );

      const to = walletAddress(network);
      const before = await balance(network, asset, to);
      const claimed = await claim(made.claim_url!, { address: to, confirm: 'yes' });
      assert.equal(claimed.status, 200, claimed.html);
      const sent = await gw.client.getRefund(made.refund_id);
      assert.equal(sent.refund_status, 'PENDING', 'sent, not yet confirmed');
      assert.equal(sent.destination, to);
      assert.ok(sent.psp_refund_id);
      assert.deepEqual(sent.history.map((h) => h.event), ['requested', 'claimed', 'sent']);
      assert.ok(claimed.html.includes(sent.psp_refund_id));

      const required = gw.gateway.networks.of(network).confirmations;
      await mine(required - 1, network);
      assert.equal((await gw.client.getRefund(made.refund_id)).refund_status, 'PENDING', `${required - 1} of ${required} confirmations`);
      await mine(1, network);
      const done = await gw.client.getRefund(made.refund_id);
      assert.equal(done.refund_status, 'SUCCESS');
      assert.deepEqual(done.history.map((h) => h.event), ['requested', 'claimed', 'sent', 'confirmed']);
      assert.equal((await balance(network, asset, to)) - before, coins, 'the customer got exactly the coins the rule says');
      assert.equal((await gw.client.getRefunds(orderId)).refundDetails[0]!.refund_status, 'SUCCESS');
      assert.match((await page(made.claim_url!)).html, /data-refund-state="SUCCESS"/);
    });
  }

  it('refuses an address of another network and a bad EIP-55 checksum with words naming the field, and keeps the claim open', async () => {
    const { orderId } = await paidOrder('USDT', 'ETHEREUM');
    const made = await refundOf(orderId, 50_000);
    const good = walletAddress('ETHEREUM');
    // One letter's case flipped: still hex, no longer its checksum.
    const i = [...good].findIndex((ch, n) => n > 1 && /[a-f]/i.test(ch));
    const badChecksum = good.slice(0, i) + (good[i] === good[i]!.toLowerCase() ? good[i]!.toUpperCase() : good[i]!.toLowerCase()) + good.slice(i + 1);
    assert.notEqual(toChecksumAddress(badChecksum), badChecksum);
    for (const [address, words] of [
      [walletAddress('TRON'), /Wallet address|Địa chỉ ví/],
      [badChecksum, /EIP-55/],
      [walletAddress('BITCOIN'), /Bitcoin/],
    ] as const) {
      const refused = await claim(made.claim_url!, { address, confirm: 'yes' });
      assert.equal(refused.status, 422, address);
      assert.match(refused.html, words);
      assert.match(refused.html, /id="address-error"/);
      assert.match(refused.html, /aria-invalid="true"/);
    }
    const unconfirmed = await claim(made.claim_url!, { address: good });
    assert.equal(unconfirmed.status, 422);
    assert.match(unconfirmed.html, /id="confirm-error"/);
    const still = await gw.client.getRefund(made.refund_id);
    assert.equal(still.destination, null);
    assert.deepEqual(still.history.map((h) => h.event), ['requested']);
    assert.equal((await claim(made.claim_url!, { address: good, confirm: 'yes' })).status, 200);
    assert.equal((await claim(made.claim_url!, { address: good, confirm: 'yes' })).status, 409, 'claimed once');
  });

  it("refuses a claim to an address of the gateway's own (the order's payment address, another order's or merchant's, its merchant's payout wallet or another's), naming the field and storing nothing", async () => {
    const { orderId, payment } = await paidOrder('USDT', 'ETHEREUM');
    const made = await refundOf(orderId, 60_000);
    const { payment: otherOrders } = await paidOrder('ETH', 'ETHEREUM');
    const other = await gw.addMerchant();
    const otherLink = await other.client.createPaymentLink(sampleLink());
    const { body: otherMerchants } = await checkoutApi(gw.url, otherLink.payment_link_ref).open('USDT', 'ETHEREUM');
    const payoutWallets = [await gw.gateway.payouts.walletAddress(gw.gateway.sandboxMerchant!.merchant_id, 'ETHEREUM'), await gw.gateway.payouts.walletAddress(other.merchantId, 'ETHEREUM')];
    for (const address of [payment.address, payment.address.toLowerCase(), otherOrders.address, otherMerchants.address, ...payoutWallets]) {
      const refused = await claim(made.claim_url!, { address, confirm: 'yes' });
      assert.equal(refused.status, 422, address);
      assert.match(refused.html, /id="address-error"[^>]*>Địa chỉ ví: là địa chỉ của chính cổng thanh toán/, address);
      assert.match(refused.html, /aria-invalid="true"/);
    }
    const still = await gw.client.getRefund(made.refund_id);
    assert.equal(still.destination, null);
    assert.equal(still.psp_refund_id, '');
    assert.deepEqual(still.history.map((h) => h.event), ['requested']);
    // The customer's own wallet (the test wallet stands for it) is still taken.
    assert.equal((await claim(made.claim_url!, { address: walletAddress('ETHEREUM'), confirm: 'yes' })).status, 200);
  });

  it("a payout the gateway sent that lands at one of its payment addresses is not counted as the customer's money", async () => {
    const { orderId, ref, payment } = await paidOrder();
    const made = await refundOf(orderId, 60_000);
    // Sent to the order's own payment address as a claim before the refusal above could have: past the claim page.
    await gw.gateway.db.transaction(async (tx) => {
      const pending = (await refundById(tx, made.refund_id, { lock: true }))!;
      await setRefundDestination(tx, pending.refund_id, payment.address);
      await gw.gateway.payouts.send(tx, { ...pending, destination: payment.address });
    });
    await gw.gateway.watcher.followAll();
    await mine(gw.gateway.networks.of('TRON').confirmations, 'TRON');
    assert.equal((await gw.client.getRefund(made.refund_id)).refund_status, 'SUCCESS');
    const { body: after } = await checkoutApi(gw.url, ref).payment(payment.payment_id);
    assert.equal(after.status, 'paid');
    assert.equal(after.overpaid, false, 'the payout is not a second transfer of the customer');
    assert.equal(after.received_crypto, payment.amount_crypto);
    assert.deepEqual(after.transactions.length, 1);
    assert.equal((await gw.client.getRefunds(orderId)).amountToRefund, 300_000, 'what is left to refund shrinks by the refund');
  });

  it('an unclaimed refund cancelled by the merchant ends FAILED with the reason and returns its amount; a sent one cannot be', async () => {
    const { orderId } = await paidOrder();
    const made = await refundOf(orderId, 100_000);
    assert.equal((await gw.client.getRefunds(orderId)).amountToRefund, 260_000);
    const cancelled = await gw.client.cancelRefund(made.refund_id, { reason: 'the customer kept the goods' });
    assert.equal(cancelled.refund_status, 'FAILED');
    assert.equal(cancelled.failure_reason, 'cancelled by the merchant: the customer kept the goods');
    assert.deepEqual(cancelled.history.map((h) => h.event), ['requested', 'failed']);
    assert.equal((await gw.client.getRefunds(orderId)).amountToRefund, 360_000);
    assert.equal((await claim(made.claim_url!, { address: walletAddress('TRON'), confirm: 'yes' })).status, 410);
    assert.match((await page(made.claim_url!)).html, /data-refund-state="FAILED"/);

    const payer = await refundOf(orderId, 10_000, { send_to: 'payer' });
    assert.equal(payer.claim_url, null);
    assert.ok(payer.psp_refund_id, 'sent at once to the address that paid');
    const error = await gw.client.cancelRefund(payer.refund_id).then(
      () => assert.fail('a sent refund cannot be cancelled'),
      (e: unknown) => e as PayCheckoutApiError,
    );
    assert.equal(error.status, 409);
  });

  it('a claim link that ran out ends FAILED, its amount refundable again, and the refund can be made again', async () => {
    const { orderId } = await paidOrder();
    const made = await refundOf(orderId, 100_000);
    gw.clock.advance(DAY_S * 1000);
    const list = await gw.client.listRefunds(orderId);
    assert.equal(list.amountToRefund, 360_000);
    const lapsed = list.refunds[0]!;
    assert.equal(lapsed.refund_status, 'FAILED');
    assert.match(lapsed.failure_reason ?? '', /expired/);
    assert.equal((await claim(made.claim_url!, { address: walletAddress('TRON'), confirm: 'yes' })).status, 410);

    const again = await gw.client.retryRefund(made.refund_id);
    assert.equal(again.retry_of, made.refund_id);
    assert.equal(again.refund_status, 'PENDING');
    assert.equal(again.amount, 100_000);
    assert.notEqual(again.claim_url, made.claim_url, 'a new claim link');
    assert.equal((await gw.client.getRefunds(orderId)).amountToRefund, 260_000);
    const twice = await gw.client.retryRefund(again.refund_id).then(
      () => assert.fail('only a FAILED refund is made again'),
      (e: unknown) => e as PayCheckoutApiError,
    );
    assert.equal(twice.status, 409);
  });

  it('answers an unknown claim token with a page that says so, and another merchant’s refund as one that does not exist', async () => {
    const missing = await page('http://localhost/refunds/claim?token=rc_nothing');
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /text\/html/);
    const { orderId } = await paidOrder();
    const made = await refundOf(orderId, 10_000);
    const other = await gw.addMerchant();
    for (const call of [() => other.client.getRefund(made.refund_id), () => other.client.cancelRefund(made.refund_id), () => other.client.listRefunds(orderId)]) {
      const error = await call().then(
        () => assert.fail('not theirs'),
        (e: unknown) => e as PayCheckoutApiError,
      );
      assert.equal(error.status, 404);
    }
  });
});
