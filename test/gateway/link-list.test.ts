// GET /api/paymentLink: the merchant's links a page at a time (an opaque cursor, stable while links are created),
// searched and filtered; and what the list shows of each link (the customer, where refunds go, each refund's payment).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PaymentLinkList, type PaymentLinkResource, type Problem } from '../../src/contract/index.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { send } from '../helpers/merchant-api.js';

describe(`GET /api/paymentLink (${storageName})`, () => {
  const gw = useTestGateway({ reset: true, token: true });

  const list = async (query: Record<string, string | number> = {}) => {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const answer = await send<PaymentLinkList & Problem>(gw.url, 'GET', `/api/paymentLink?${search}`, { headers: { Authorization: `Bearer ${gw.token}` } });
    return answer;
  };
  const orders = (links: PaymentLinkResource[]) => links.map((l) => l.merchant_order_id);

  /** Every page of a query, walked with its cursors. */
  async function walk(query: Record<string, string | number>, between?: () => Promise<void>): Promise<string[]> {
    const seen: string[] = [];
    for (let cursor: string | null | undefined, pages = 0; cursor !== null; pages++) {
      assert.ok(pages < 500, 'the walk ends');
      const { status, body } = await list({ ...query, ...(cursor && { cursor }) });
      assert.equal(status, 200, JSON.stringify(body));
      assert.ok(PaymentLinkList.safeParse(body).success);
      seen.push(...orders(body.payment_links));
      cursor = body.next_cursor;
      await between?.();
    }
    return seen;
  }

  /** Creates links for these order ids, the clock moving `gapsMs[i]` before each (0: the same millisecond). */
  async function create(ids: string[], gapsMs: number[] = ids.map(() => 1)): Promise<void> {
    for (const [i, id] of ids.entries()) {
      gw.clock.advance(gapsMs[i] ?? 1);
      await gw.client.createPaymentLink(sampleLink({ merchant_order_id: id }));
    }
  }

  it('walks every link once, newest first, whatever the page size, also when many share a millisecond', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(0, 0, 1, 1000), { minLength: 1, maxLength: 14 }), fc.integer({ min: 1, max: 5 }), async (gaps, limit) => {
        await gw.reset();
        const ids = gaps.map((_, i) => `walk-${i}`);
        await create(ids, gaps);
        const everything = orders((await list({ limit: 200 })).body.payment_links);
        assert.equal(everything.length, ids.length);
        const walked = await walk({ limit });
        assert.deepEqual(walked, everything, 'each link once, in the order of the whole list');
        // Newest first: a link created later never comes after one created earlier.
        const createdOrder = new Map(ids.map((id, i) => [id, i]));
        const times = gaps.reduce<number[]>((acc, gap) => [...acc, (acc.at(-1) ?? 0) + gap], []);
        for (let i = 1; i < walked.length; i++) assert.ok(times[createdOrder.get(walked[i]!)!]! <= times[createdOrder.get(walked[i - 1]!)!]!);
      }),
      { numRuns: 12 },
    );
  });

  it('is stable while links are created: links made during the walk never shift its pages', async () => {
    await create(Array.from({ length: 9 }, (_, i) => `before-${i}`));
    let made = 0;
    const walked = await walk({ limit: 2 }, async () => {
      await create([`during-${made++}`]);
    });
    assert.deepEqual(walked, Array.from({ length: 9 }, (_, i) => `before-${8 - i}`));
  });

  it('finds by part of an order id, a whole ref, or the customer’s e-mail (billing or given at checkout), case-insensitive', async () => {
    // 'a_b:' and 'axb:': a ':' no random id, hash or address holds, so only these order ids can match (a payment id, in
    // base64url, held 'A_b' once by chance).
    await create(['DH-20261122-AA01', 'DH-20261122-BB02', 'other-3', 'a_b:4', 'axb:6']);
    const { payment_link_ref: withCustomer } = await gw.client.createPaymentLink(
      sampleLink({ merchant_order_id: 'guest-5', billing_details: { billing_name: 'Bích', billing_email: 'bich@example.com' } }),
    );
    await gw.gateway.customerCheckout.open(withCustomer, {
      pmt_channel: 'PROVIDER',
      pmt_method: 'PROVIDER_CRYPTO',
      asset: 'BTC',
      network: 'BITCOIN',
      customer: { name: 'Trần Thị Mai', email: 'Mai.Tran@Example.vn' },
    });
    const found = async (q: string) => orders((await list({ q })).body.payment_links);
    assert.deepEqual(await found('bb02'), ['DH-20261122-BB02']);
    assert.deepEqual(await found('DH-20261122'), ['DH-20261122-BB02', 'DH-20261122-AA01']);
    assert.deepEqual(await found(withCustomer), ['guest-5']);
    assert.deepEqual(await found(withCustomer.slice(0, -2)), [], 'a ref matches whole');
    assert.deepEqual(await found('mai.tran@example'), ['guest-5'], 'the e-mail given at checkout');
    assert.deepEqual(await found('BICH@'), ['guest-5'], 'the billing e-mail');
    assert.equal((await found('an@example.com')).length, 5, 'the sample billing e-mail of the others');
    assert.deepEqual(await found('%'), [], '% is a character, not a wildcard');
    assert.deepEqual(await found('a_b:'), ['a_b:4'], '_ is a character, not a wildcard');
    assert.deepEqual(await found('nobody'), []);

    const [guest] = (await list({ q: 'guest-5' })).body.payment_links;
    assert.deepEqual(guest!.customer, { name: 'Trần Thị Mai', email: 'Mai.Tran@Example.vn' }, 'the contact given at checkout comes first');
    const [billed] = (await list({ q: 'other-3' })).body.payment_links;
    assert.deepEqual(billed!.customer, { name: 'Nguyễn Văn An', email: 'an@example.com', phone: '+84 912 345 678' });
  });

  it('finds an order by whatever the customer quotes: ids, transactions, addresses, the amount in any spelling, name, e-mail, phone', async () => {
    // Two paid orders alike but for what is searched: each term finds the one it names and never the other.
    const { payment_link_ref: ref } = await gw.client.createPaymentLink(
      sampleLink({ merchant_order_id: 'DH-530', amount: 530_000, order_details: [{ id: 'sku-1', name: 'Cà phê hạt 1 kg', price: 520_000, quantity: 1 }] }),
    );
    await gw.client.createPaymentLink(
      sampleLink({ merchant_order_id: 'DH-999', billing_details: { billing_name: 'Trần Bích', billing_email: 'bich@example.vn', billing_phone: '+84 987 654 321' } }),
    );
    const { payment } = await gw.gateway.customerCheckout.open(ref, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' });
    const { tx_hash } = await gw.gateway.wallet.transfer({ to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto });
    await gw.gateway.sandboxControls.mine(payment.confirmations_required, 'TRON');
    const refunds = await gw.client.createRefund('DH-530', { amount: 30_000, channel: 'PROVIDER', description: 'shipping', refund_type: 'partial', refund_reason: 'late', send_to: 'payer' });
    const refund = refunds.refundDetails[0]!;
    assert.ok(refund.psp_refund_id, 'sent at once to the payer');

    const found = async (q: string) => orders((await list({ q })).body.payment_links);
    const terms = {
      'order id': 'dh-530',
      'link ref': ref,
      'payment id': payment.payment_id,
      'refund id': refund.refund_id,
      'transaction hash': tx_hash,
      'its first 8 characters': tx_hash.slice(0, 8),
      'the refund’s transaction': refund.psp_refund_id,
      'receiving address': payment.address,
      'paying address': gw.gateway.wallet.addresses.TRON!,
      'amount': '530000',
      'amount, vi': '530.000',
      'amount, en': '530,000',
      'amount, spaced': '530 000',
      'amount, with ₫': '530.000 ₫',
      'name without diacritics': 'Nguyen',
      'name in capitals': 'NGUYỄN VĂN',
      'given name': 'van an',
      'e-mail': 'AN@example.com',
      'phone at home': '0912 345 678',
      'phone abroad': '+84912345678',
    };
    for (const [what, q] of Object.entries(terms)) assert.deepEqual(await found(q), ['DH-530'], `${what}: ${q}`);
    for (const [what, q] of Object.entries({ 'the other name': 'tran bich', 'the other phone': '0987654321', 'the other amount': '360.000' })) {
      assert.deepEqual(await found(q), ['DH-999'], `${what}: ${q}`);
    }
    assert.deepEqual(await found('530.00'), [], 'a broken grouping is not an amount');
    assert.deepEqual(await found('Nguyen Bich'), []);
  });

  it('filters by status, asset and network, creation dates and held money; filters combine with the search and the cursor', async () => {
    const t0 = gw.clock.now();
    await create(['active-1']);
    const { ref: paidRef } = await (async () => {
      gw.clock.advance(1);
      const { payment_link_ref: ref } = await gw.client.createPaymentLink(sampleLink({ merchant_order_id: 'paid-2' }));
      await gw.markPaid(ref);
      return { ref };
    })();
    // A minute on (the token lives an hour): the links after it are a later batch.
    gw.clock.advance(60_000);
    const t1 = gw.clock.now();
    const { payment_link_ref: expiring } = await gw.client.createPaymentLink(sampleLink({ merchant_order_id: 'expired-3' }));
    await gw.gateway.customerCheckout.open(expiring, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'ETH', network: 'ETHEREUM' });
    await gw.gateway.sandboxControls.expireLink(expiring);
    // Late money: the quote ends, then the full amount arrives and confirms: held for the merchant.
    gw.clock.advance(1);
    const { payment_link_ref: lateRef } = await gw.client.createPaymentLink(sampleLink({ merchant_order_id: 'late-4' }));
    const { payment } = await gw.gateway.customerCheckout.open(lateRef, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'ETHEREUM' });
    await gw.gateway.sandboxControls.expireQuote({ payment_id: payment.payment_id });
    await gw.gateway.wallet.transfer({ to: payment.address, asset: 'USDT', network: 'ETHEREUM', amount: payment.amount_crypto });
    await gw.gateway.sandboxControls.mine(payment.confirmations_required, 'ETHEREUM');

    const found = async (query: Record<string, string | number>) => orders((await list(query)).body.payment_links);
    assert.deepEqual(await found({ status: 'paid' }), ['paid-2']);
    assert.deepEqual(await found({ status: 'expired' }), ['expired-3']);
    assert.deepEqual(await found({ status: 'active' }), ['late-4', 'active-1']);
    assert.deepEqual(await found({ asset: 'USDT' }), ['late-4', 'paid-2']);
    assert.deepEqual(await found({ asset: 'USDT', network: 'TRON' }), ['paid-2']);
    assert.deepEqual(await found({ network: 'ETHEREUM' }), ['late-4', 'expired-3']);
    assert.deepEqual(await found({ created_before: t1.toISOString() }), ['paid-2', 'active-1']);
    assert.deepEqual(await found({ created_from: t1.toISOString() }), ['late-4', 'expired-3']);
    const day = t0.toISOString().slice(0, 10);
    assert.ok((await found({ created_from: day })).includes('active-1'), 'a bare date is its midnight, UTC');
    // t0 on a clock in Hà Nội: the same instant, so nothing was created before it; read as UTC it is 7 hours later.
    const hanoi = new Date(t0.getTime() + 7 * 3_600_000).toISOString().replace('Z', '+07:00');
    assert.deepEqual(await found({ created_before: hanoi }), [], 'the offset counts');
    assert.equal((await found({ created_before: hanoi.replace('+07:00', 'Z') })).length, 4);
    assert.deepEqual(await found({ held: 'true' }), ['late-4']);
    assert.deepEqual(await found({ held: 'false', status: 'active' }), ['active-1']);
    assert.deepEqual(await walk({ q: '-', limit: 1, status: 'active' }), ['late-4', 'active-1']);

    // Refunded in full, the late money is no longer held.
    await gw.client.createRefund('late-4', { amount: 360_000, channel: 'PROVIDER', description: 'late', refund_type: 'full', refund_reason: 'came late' });
    assert.deepEqual(await found({ held: 'true' }), []);
    const [late] = (await list({ q: 'late-4' })).body.payment_links;
    assert.equal(late!.refunds[0]!.payment_id, payment.payment_id, 'each refund names its payment');
    assert.equal(late!.payments[0]!.refund_address, gw.gateway.wallet.addresses.ETHEREUM, 'refunds go to the sender');
    const [paid] = (await list({ q: paidRef })).body.payment_links;
    assert.equal(paid!.payments[0]!.refund_address, gw.gateway.wallet.addresses.TRON);
  });

  it('tells paid orders kept, partly refunded and refunded apart, and combines that with held money and the status', async () => {
    const refund = (amount: number, type: 'partial' | 'full' = 'partial') =>
      ({ amount, channel: 'PROVIDER', description: 'back', refund_type: type, refund_reason: 'asked', send_to: 'payer' }) as const;
    for (const id of ['kept-1', 'partly-2', 'fully-3', 'failed-4']) {
      gw.clock.advance(1);
      const { payment_link_ref } = await gw.client.createPaymentLink(sampleLink({ merchant_order_id: id }));
      await gw.markPaid(payment_link_ref);
    }
    await create(['active-5']);
    await gw.client.createRefund('partly-2', refund(100_000));
    await gw.client.createRefund('fully-3', refund(100_000));
    await gw.client.createRefund('fully-3', refund(260_000, 'full'));
    // A refund taken back (FAILED) returned nothing: the order is as if it had none.
    const claimed = await gw.client.createRefund('failed-4', { ...refund(360_000, 'full'), send_to: 'claim' });
    await gw.client.cancelRefund(claimed.refundDetails[0]!.refund_id);
    const found = async (query: Record<string, string>) => orders((await list(query)).body.payment_links);
    assert.deepEqual(await found({ refunded: 'fully' }), ['fully-3']);
    assert.deepEqual(await found({ refunded: 'partly' }), ['partly-2']);
    assert.deepEqual(await found({ refunded: 'none', status: 'paid' }), ['failed-4', 'kept-1']);
    assert.deepEqual(await found({ refunded: 'none' }), ['active-5', 'failed-4', 'kept-1']);
    assert.deepEqual(await found({ refunded: 'partly', held: 'true' }), [], 'nothing held on them');
    assert.deepEqual(await found({ refunded: 'partly', q: 'partly' }), ['partly-2']);
    // The count of what the filters find, on a page of any size, and only when asked.
    const counted = async (query: Record<string, string | number>) => (await list({ ...query, include_total: 'true' })).body.total;
    assert.equal(await counted({ limit: 1 }), 5);
    assert.equal(await counted({ status: 'paid', refunded: 'none', limit: 1 }), 2);
    assert.equal(await counted({ q: 'fully' }), 1);
    assert.equal(await counted({ q: 'nobody' }), 0);
    assert.equal((await list({ limit: 1 })).body.total, undefined);
    const { status, body } = await list({ refunded: 'all' });
    assert.equal(status, 422);
    assert.deepEqual(body.errors, [{ path: 'refunded', message: 'must be one of none, partly, fully' }]);
  });

  it('sorts by creation or amount, either way, every link once across pages, ties by ref; a cursor keeps to its order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(100_000, 360_000, 360_000, 1_250_000), { minLength: 1, maxLength: 9 }), fc.integer({ min: 1, max: 4 }), async (amounts, limit) => {
        await gw.reset();
        for (const [i, amount] of amounts.entries()) {
          gw.clock.advance(1);
          await gw.client.createPaymentLink(sampleLink({ merchant_order_id: `sort-${i}`, amount, order_details: [{ id: 'x', name: 'x', price: amount - 10_000, quantity: 1 }] }));
        }
        const byAmount = amounts.map((amount, i) => ({ amount, id: `sort-${i}` }));
        const walkedBy = async (sort: string) => (await walk({ sort, limit })).map((id) => byAmount.find((l) => l.id === id)!.amount);
        const ascending = [...amounts].sort((a, b) => a - b);
        assert.deepEqual(await walkedBy('amount'), ascending);
        assert.deepEqual(await walkedBy('-amount'), [...ascending].reverse());
        assert.deepEqual(await walk({ sort: 'created_at', limit }), byAmount.map((l) => l.id));
        assert.deepEqual(await walk({ sort: '-created_at', limit }), byAmount.map((l) => l.id).reverse());
      }),
      { numRuns: 6 },
    );
    await create(['tie-1', 'tie-2']);
    const { next_cursor } = (await list({ sort: 'amount', limit: 1 })).body;
    const { status, body } = await list({ sort: '-created_at', cursor: next_cursor! });
    assert.equal(status, 422);
    assert.deepEqual(body.errors, [{ path: 'cursor', message: 'must be the next_cursor of an earlier page' }]);
  });

  it('names the bad parameter and the rule, and lists nothing of another merchant', async () => {
    const errors = async (query: Record<string, string>) => {
      const { status, body } = await list(query);
      assert.equal(status, 422, JSON.stringify(body));
      return body.errors;
    };
    assert.deepEqual(await errors({ status: 'paid_late' }), [{ path: 'status', message: 'must be one of active, paid, expired, cancelled' }]);
    assert.deepEqual(await errors({ asset: 'DOGE' }), [{ path: 'asset', message: 'must be one of USDT, ETH, BTC' }]);
    const dateRule = 'must be a date-time with its offset, such as 2026-11-22T00:00:00+07:00, or a date such as 2026-11-22';
    for (const bad of ['yesterday', '2026-02-30', '2026-11-22T10:00:00', '2026-11-22T25:00:00Z']) {
      assert.deepEqual(await errors({ created_from: bad }), [{ path: 'created_from', message: dateRule }], bad);
    }
    assert.deepEqual(await errors({ held: 'yes' }), [{ path: 'held', message: 'must be true or false' }]);
    assert.deepEqual(await errors({ q: '' }), [{ path: 'q', message: 'must not be empty' }]);
    for (const bad of ['nonsense', Buffer.from('["2026-11-22", "pl_x"]').toString('base64url'), Buffer.from('{}').toString('base64url')]) {
      assert.deepEqual(await errors({ cursor: bad }), [{ path: 'cursor', message: 'must be the next_cursor of an earlier page' }], bad);
    }

    await create(['mine-1']);
    const other = await gw.addMerchant();
    await other.client.createPaymentLink(sampleLink({ merchant_order_id: 'theirs-1' }));
    assert.deepEqual(orders((await list()).body.payment_links), ['mine-1']);
    const theirs = await other.client.listPaymentLinks();
    assert.deepEqual([orders(theirs.payment_links), theirs.next_cursor], [['theirs-1'], null]);
  });

  it('the SDK passes every filter and walks every page', async () => {
    await create(Array.from({ length: 5 }, (_, i) => `sdk-${i}`));
    const page = await gw.client.listPaymentLinks({ q: 'SDK-', limit: 2, created_from: new Date(0), status: 'active' });
    assert.deepEqual(orders(page.payment_links), ['sdk-4', 'sdk-3']);
    const all: string[] = [];
    for await (const link of gw.client.eachPaymentLink({ limit: 2 })) all.push(link.merchant_order_id);
    assert.deepEqual(all, ['sdk-4', 'sdk-3', 'sdk-2', 'sdk-1', 'sdk-0']);
    assert.deepEqual(orders(await gw.client.findPaymentLinks('sdk-2')), ['sdk-2']);
  });
});
