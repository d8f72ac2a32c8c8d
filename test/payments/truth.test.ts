// Payment truth, case by case: what a hostile tester did to the gateway, and what must come of it. Bursts of blocks,
// restarts, switched assets, late money, failed watcher rounds, held funds accepted or returned, typeable quotes.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AssetCode, Network, Payment, PaymentLinkResource, RefundList, WebhookEvent } from '../../src/contract/index.js';
import { verifyRedirect } from '../../src/merchant/index.js';
import { parseDecimal } from '../../src/codecs/amounts.js';
import { ManualClock } from '../../src/sandbox/clock.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, startTestGateway, storageName, type TestGateway } from '../helpers/gateway.js';
import { accessToken, JSON_TYPE, send } from '../helpers/merchant-api.js';
import { startReceiver } from '../helpers/receiver.js';

const DECIMALS: Record<AssetCode, number> = { USDT: 6, ETH: 18, BTC: 8 };
const atomic = (payment: Payment, amount = payment.amount_crypto) => parseDecimal(amount, DECIMALS[payment.asset]!);

describe(`payment truth (${storageName})`, () => {
  const gw = useTestGateway({ reset: true });

  const sandbox = () => sandboxApi(gw.url);
  async function newLink(overrides = {}) {
    const input = sampleLink(overrides);
    const link = await gw.client.createPaymentLink(input);
    return { ...link, orderId: input.merchant_order_id, checkout: checkoutApi(gw.url, link.payment_link_ref) };
  }
  async function pay(payment: Payment, amount = payment.amount_crypto) {
    const sent = await sandbox().transfer(payment.address, payment.asset, payment.network, amount);
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    return sent.body.tx_hash;
  }
  // A token of its own for each call: tests move the clock past a token's life.
  const merchant = async <T>(method: string, path: string, body?: unknown) =>
    send<T>(gw.url, method, path, {
      headers: { Authorization: `Bearer ${await accessToken(gw.url, gw.credentials)}`, ...JSON_TYPE },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const accept = (paymentId: string) => merchant<PaymentLinkResource>('POST', `/api/payments/${paymentId}/accept`);
  const refund = (orderId: string, amount: number, extra: Record<string, unknown> = {}) =>
    merchant<RefundList>('POST', `/api/refund/createRefund/${orderId}`, {
      amount,
      channel: 'PROVIDER',
      description: 'returned',
      refund_type: 'partial',
      refund_reason: 'held funds',
      // Back to the address that paid, at once: these tests follow the coins.
      send_to: 'payer',
      ...extra,
    });
  const balanceAt = (network: Network, asset: AssetCode, address: string) => gw.gateway.chains.wallet(network)!.balance(asset, address);

  it('confirms a payment after a burst of 20 blocks at once (more than the confirmation window)', async () => {
    const { checkout } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    await pay(payment);
    await sandbox().mine(20, 'TRON');
    const { body } = await checkout.payment(payment.payment_id);
    assert.equal(body.transactions[0]!.confirmations, 20);
    assert.deepEqual([body.status, (await checkout.view()).body.status], ['paid', 'paid']);
  });

  it('pays an order once when the customer switches asset, pays, then also pays the first address: the rest is held', async () => {
    const { checkout, orderId, payment_link_ref: ref } = await newLink();
    const { body: tron } = await checkout.open('USDT', 'TRON');
    const { body: eth } = await checkout.open('USDT', 'ETHEREUM');
    assert.equal((await checkout.payment(tron.payment_id)).body.status, 'expired', 'the switch closes the first quote at once');
    await pay(eth);
    await sandbox().mine(3, 'ETHEREUM');
    await pay(tron);
    await sandbox().mine(3, 'TRON');
    const link = await gw.client.getPaymentLink(ref);
    assert.equal(link.status, 'paid');
    assert.deepEqual(
      link.payments.map((p) => [p.payment_id, p.status, p.held_vnd]),
      [
        [tron.payment_id, 'paid_late', 360_000],
        [eth.payment_id, 'paid', 0],
      ],
    );
    assert.equal(link.amountToRefund, 720_000, 'the order holds both payments, none twice');
    const returned = await refund(orderId, 360_000, { payment_id: tron.payment_id });
    assert.equal(returned.status, 201, JSON.stringify(returned.body));
    assert.equal(await balanceAt('TRON', 'USDT', tron.address), 0n, 'every coin of the held payment went back');
    assert.equal(returned.body.amountToRefund, 360_000);
  });

  it('answers a wallet transfer to a superseded address with 201, and holds the money', async () => {
    const { checkout } = await newLink();
    const { body: tron } = await checkout.open('USDT', 'TRON');
    await checkout.open('BTC', 'BITCOIN');
    await pay(tron);
    await sandbox().mine(3, 'TRON');
    const { body } = await checkout.payment(tron.payment_id);
    assert.deepEqual([body.status, body.held_vnd], ['paid_late', 360_000]);
    assert.equal((await checkout.view()).body.status, 'active');
  });

  it('never turns a late payment into a paid one through a new quote: the new quote is refused while it is held', async () => {
    const { checkout } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    await sandbox().expireQuote(payment.payment_id);
    gw.clock.advance(1000);
    await pay(payment);
    const requote = await checkout.open('USDT', 'TRON');
    assert.equal(requote.status, 409);
    await sandbox().mine(3, 'TRON');
    assert.equal((await checkout.payment(payment.payment_id)).body.status, 'paid_late');
    assert.equal((await checkout.view()).body.status, 'active');
  });

  it('lets the merchant accept a held payment: the link is paid, the webhook sent, the success redirect signed', async () => {
    const receiver = await startReceiver();
    try {
      await gw.client.addWebhookEndpoint(receiver.url);
      const { checkout, payment_link_ref: ref } = await newLink();
      const { body: payment } = await checkout.open('USDT', 'TRON');
      await sandbox().expireQuote(payment.payment_id);
      await pay(payment);
      await sandbox().mine(3, 'TRON');
      const accepted = await accept(payment.payment_id);
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
      assert.equal(accepted.body.status, 'paid');
      assert.deepEqual([accepted.body.payments[0]!.status, accepted.body.payments[0]!.held_vnd], ['paid', 0]);
      const { body: paid } = await checkout.payment(payment.payment_id);
      assert.ok(paid.accepted_at);
      assert.deepEqual((await verifyRedirect(paid.success_redirect_url!, gw.credentials.clientSecret))?.status, 'paid');
      await gw.deliverAll();
      const types = receiver.received.map((r) => (JSON.parse(r.body) as WebhookEvent).type);
      assert.ok(types.includes('payment.paid'), types.join());
      assert.equal((await accept(payment.payment_id)).status, 409, 'the link is paid now');
      assert.equal((await gw.client.getPaymentLink(ref)).amountToRefund, 360_000);
    } finally {
      await receiver.stop();
    }
  });

  it('refuses to accept what is not a held full payment, another merchant’s payment, and without a token', async () => {
    const { checkout } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    const open = await accept(payment.payment_id);
    assert.equal(open.status, 409);
    assert.match(String((open.body as unknown as { detail: string }).detail), /awaiting_payment/);
    assert.equal((await accept('pay_unknown')).status, 404);
    const other = await gw.addMerchant();
    const theirs = await send(gw.url, 'POST', `/api/payments/${payment.payment_id}/accept`, {
      headers: { Authorization: `Bearer ${await accessToken(gw.url, other.credentials)}` },
    });
    assert.equal(theirs.status, 404);
    assert.equal((await send(gw.url, 'POST', `/api/payments/${payment.payment_id}/accept`)).status, 401);
  });

  /** A payment sent before its link expired and confirmed after a second link of the order replaced it: held, paid_late. */
  async function paidAfterReplaced() {
    const { checkout, orderId, payment_link_ref: first } = await newLink({ expiry_hours: 1 });
    const { body: payment } = await checkout.open('USDT', 'TRON');
    await pay(payment);
    gw.clock.advance(3_600_000);
    const second = await gw.client.createPaymentLink(sampleLink({ merchant_order_id: orderId }));
    await sandbox().mine(3, 'TRON');
    return { payment, orderId, first, second };
  }

  it('holds a payment that confirms after its expired link was replaced by a new one, and lets the merchant return it', async () => {
    const { payment, orderId, first, second } = await paidAfterReplaced();
    const old = await gw.client.getPaymentLink(first);
    assert.deepEqual([old.status, old.payments[0]!.status, old.payments[0]!.held_vnd], ['expired', 'paid_late', 360_000]);
    assert.equal((await gw.client.getPaymentLink(second.payment_link_ref)).status, 'active');
    const wallet = (await sandbox().wallet()).body.addresses.TRON!;
    const before = await balanceAt('TRON', 'USDT', wallet);
    const full = await refund(orderId, 360_000, { refund_type: 'full' });
    assert.equal(full.status, 201, JSON.stringify(full.body));
    assert.equal(full.body.amountToRefund, 0);
    assert.equal((await balanceAt('TRON', 'USDT', wallet)) - before, atomic(payment), 'every coin back to the sender');
  });

  it('closes the other live link of the order when the merchant accepts a held payment of an old one', async () => {
    const { payment, first, second } = await paidAfterReplaced();
    assert.equal((await accept(payment.payment_id)).status, 200);
    assert.equal((await gw.client.getPaymentLink(first)).status, 'paid');
    assert.equal((await gw.client.getPaymentLink(second.payment_link_ref)).status, 'expired');
    assert.equal((await checkoutApi(gw.url, second.payment_link_ref).open('USDT', 'TRON')).status, 410);
  });

  it('refunds held money without a payment_id after the paid payment’s, and refuses more than the order holds', async () => {
    const { checkout, orderId } = await newLink();
    const { body: tron } = await checkout.open('USDT', 'TRON');
    const { body: btc } = await checkout.open('BTC', 'BITCOIN');
    await pay(btc);
    await sandbox().mine(2, 'BITCOIN');
    await pay(tron);
    await sandbox().mine(3, 'TRON');
    assert.equal((await refund(orderId, 720_001)).status, 422);
    const all = await refund(orderId, 720_000, { refund_type: 'full' });
    assert.equal(all.status, 201, JSON.stringify(all.body));
    assert.equal(all.body.refundDetails.length, 2, 'one refund per payment');
    assert.equal(await balanceAt('BITCOIN', 'BTC', btc.address), 0n);
    assert.equal(await balanceAt('TRON', 'USDT', tron.address), 0n);
    assert.equal((await refund(orderId, 1)).status, 422);
  });

  it('refuses to refund an order that holds nothing, naming why', async () => {
    const { checkout, orderId } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    await pay(payment, '1');
    await sandbox().mine(3, 'TRON');
    assert.equal((await checkout.payment(payment.payment_id)).body.status, 'underpaid');
    assert.equal((await refund(orderId, 1_000)).status, 409, 'the customer is still paying: nothing is held yet');
  });

  it('quotes amounts a person can type (USDT 2 decimals, ETH 6, BTC 8), rounded up, and an exact payment is not overpaid', async () => {
    const places: [AssetCode, Network, number][] = [
      ['USDT', 'TRON', 2],
      ['USDT', 'ETHEREUM', 2],
      ['ETH', 'ETHEREUM', 6],
      ['BTC', 'BITCOIN', 8],
    ];
    for (const [asset, network, decimals] of places) {
      const { checkout } = await newLink();
      const { body: payment } = await checkout.open(asset, network);
      assert.match(payment.amount_crypto, new RegExp(`^\\d+(\\.\\d{1,${decimals}})?$`), `${asset} ${payment.amount_crypto}`);
      const worth = (atomic(payment) * BigInt(parseDecimal(payment.rate, 6))) / 10n ** BigInt(DECIMALS[asset]! + 6);
      assert.ok(worth >= 360_000n, `${payment.amount_crypto} ${asset} at ${payment.rate} covers the order`);
      await pay(payment);
      await sandbox().mine(3, network);
      const { body } = await checkout.payment(payment.payment_id);
      assert.deepEqual([body.status, body.overpaid, body.held_vnd], ['paid', false, 0]);
    }
  });

  it('shows a partial payment at once, before its first block, with what is left in crypto and VND', async () => {
    const { checkout } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    await pay(payment, '5');
    const { body } = await checkout.payment(payment.payment_id);
    assert.equal(body.received_crypto, '5');
    assert.equal(parseDecimal(body.remaining_crypto, 6), atomic(payment) - 5_000_000n);
    assert.ok(body.remaining_vnd > 0 && body.remaining_vnd < 360_000);
    assert.equal(body.transactions[0]!.confirmations, 0);
  });

  it('records an event only when the payment changed: opening the same payment again records nothing', async () => {
    const { checkout, payment_link_ref: ref } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    for (let i = 0; i < 3; i++) assert.equal((await checkout.open('USDT', 'TRON')).status, 200);
    const events = await gw.gateway.db.query('SELECT 1 FROM payment_events WHERE payment_link_ref = $1', [ref]);
    assert.equal(events.length, 1);
    await pay(payment);
    assert.equal((await gw.gateway.db.query('SELECT 1 FROM payment_events WHERE payment_link_ref = $1', [ref])).length, 2);
  });

  it('keeps the watcher going after a failed round, and one bad link does not stop the others', async () => {
    const { checkout: bad } = await newLink();
    const { body: broken } = await bad.open('USDT', 'TRON');
    await pay(broken);
    const { checkout: good } = await newLink();
    const { body: fine } = await good.open('USDT', 'TRON');
    await pay(fine);
    // A row the reconciler cannot read (as a bug or a bad migration would leave it): its link fails every round.
    await gw.gateway.db.query(`UPDATE payments SET rate = 'not a rate' WHERE payment_id = $1`, [broken.payment_id]);
    const { chains, watcher } = gw.gateway;
    const tron = chains.port('TRON');
    const head = tron.head.bind(tron);
    let failures = 0;
    tron.head = async () => {
      failures++;
      throw new Error('the chain went away for a moment');
    };
    const quiet = console.error;
    console.error = () => undefined;
    const tip = async () => (await sandbox().chain()).body.tips.TRON!;
    try {
      await watcher.tick();
      tron.head = head;
      const before = await tip();
      for (let i = 0; i < 3; i++) {
        gw.clock.advance(10_000);
        await chains.mineDue();
        await watcher.tick();
      }
      assert.equal(failures, 1);
      assert.equal(await tip(), before + 3, 'the watcher followed on after the failed round');
      assert.equal((await good.payment(fine.payment_id)).body.status, 'paid', 'the good link was reconciled after the bad one failed');
    } finally {
      console.error = quiet;
      tron.head = head;
    }
  });
});

describe(`reconciliation on start (${storageName})`, () => {
  it('confirms on start a payment whose blocks came while no gateway reconciled (after a burst, after a crash)', async () => {
    const folder = process.env.TEST_DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'pay-checkout-start-'));
    const clock = new ManualClock();
    const config = folder ? { dataDir: join(folder, 'pglite') } : {};
    const first = await startTestGateway({ clock, config, schema: folder ? undefined : `start_${Date.now()}` });
    const schema = (await first.gateway.db.query<{ schema: string }>('SELECT current_schema() AS schema'))[0]!.schema;
    let second: TestGateway | undefined;
    try {
      const link = await first.client.createPaymentLink(sampleLink());
      const { body: payment } = await checkoutApi(first.url, link.payment_link_ref).open('USDT', 'TRON');
      const { db, chains, wallet, watcher } = first.gateway;
      // The transfer and the blocks land on the chain, but no gateway follows them: as when a process dies.
      await watcher.stop();
      const tron = chains.simulated('TRON')!;
      await tron.broadcast(db, wallet.addresses.TRON!, payment.address, 'USDT', atomic(payment));
      await tron.mine(20);
      assert.equal((await checkoutApi(first.url, link.payment_link_ref).payment(payment.payment_id)).body.status, 'awaiting_payment');
      await first.close();
      second = await startTestGateway({ clock, config, schema, watch: true });
      const { body } = await checkoutApi(second.url, link.payment_link_ref).payment(payment.payment_id);
      assert.equal(body.status, 'paid');
    } finally {
      await second?.close();
      if (folder) await rm(folder, { recursive: true, force: true });
    }
  });
});
