// POST {base_url}/api/refund/createRefund/{order_id} and GET .../getDataByTransaction/{order_id} (docs/api.md, "Create a refund", "Get the refunds of an order").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REFUND_STATUSES, RefundList, type CreateRefundRequest, type Problem } from '../../src/contract/index.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { accessToken, JSON_TYPE, paidOrder, rowCounts, send, type Answer } from '../helpers/merchant-api.js';

const PAID = 360_000;
/** The seed's fields of a refund record, exactly, and the claim link beside them. */
const SEED_FIELDS = ['amount', 'currency', 'psp_refund_id', 'refund_date', 'refund_id', 'refund_reason', 'refund_status', 'refund_type'];
const RECORD_FIELDS = [...SEED_FIELDS, 'claim_url'].sort();

const refund = (amount: number, extra: Partial<CreateRefundRequest> = {}): CreateRefundRequest => ({
  amount,
  channel: 'PROVIDER',
  description: 'returned goods',
  refund_type: 'partial',
  refund_reason: 'customer changed their mind',
  ...extra,
});

describe(`refund endpoints (${storageName})`, () => {
  const gw = useTestGateway({ reset: true, token: true });

  const bearer = (value = gw.token) => ({ Authorization: `Bearer ${value}` });
  const create = (orderId: string, body: unknown, headers: Record<string, string> = {}) =>
    send<RefundList & Problem>(gw.url, 'POST', `/api/refund/createRefund/${encodeURIComponent(orderId)}`, {
      body: JSON.stringify(body),
      headers: { ...JSON_TYPE, ...bearer(), ...headers },
    });
  const list = (orderId: string, headers: Record<string, string> = bearer()) =>
    send<RefundList & Problem>(gw.url, 'GET', `/api/refund/getDataByTransaction/${encodeURIComponent(orderId)}`, { headers });

  /** A refund list: exactly its fields, and amountToRefund = paid − what the listed, not failed, refunds took. */
  function assertRefundList(answer: Answer<RefundList & Problem>, status: number, paid = PAID): RefundList {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.ok(RefundList.safeParse(answer.body).success, JSON.stringify(answer.body));
    assert.deepEqual(Object.keys(answer.body).sort(), ['amountToRefund', 'refundDetails']);
    const refunded = answer.body.refundDetails.filter((r) => r.refund_status !== 'FAILED').reduce((sum, r) => sum + r.amount, 0);
    assert.equal(answer.body.amountToRefund, paid - refunded);
    for (const record of answer.body.refundDetails) {
      assert.deepEqual(Object.keys(record).sort(), RECORD_FIELDS);
      assert.match(record.refund_date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
      assert.equal(record.currency, 'vnd');
      assert.ok(REFUND_STATUSES.includes(record.refund_status), record.refund_status);
    }
    return answer.body;
  }
  function assertProblem(answer: Answer<RefundList & Problem>, status: number, path?: string): Problem {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.headers.get('content-type'), 'application/problem+json');
    assert.equal(answer.body.status, status);
    if (path) assert.ok(answer.body.errors?.some((e) => e.path === path), JSON.stringify(answer.body.errors));
    return answer.body;
  }

  it('refunds part of a paid order and lists it PENDING with its claim link: the refund list’s fields, refund_date with microseconds at +00:00', async () => {
    const { orderId } = await paidOrder(gw);
    const made = assertRefundList(await create(orderId, refund(60_000)), 201);
    assert.equal(made.amountToRefund, 300_000);
    const [record] = made.refundDetails;
    assert.deepEqual(
      { ...record, refund_id: undefined, psp_refund_id: undefined, refund_date: undefined },
      {
        amount: 60_000,
        currency: 'vnd',
        refund_status: 'PENDING',
        refund_type: 'partial',
        refund_reason: 'customer changed their mind',
        refund_id: undefined,
        psp_refund_id: undefined,
        refund_date: undefined,
        claim_url: record!.claim_url,
      },
    );
    assert.match(record!.refund_id, /^rf_/);
    assert.equal(record!.psp_refund_id, '', 'nothing sent until the customer claims it');
    // On the origin of CHECKOUT_URL, absolute.
    const claim = new URL(record!.claim_url!);
    assert.equal(claim.origin, new URL(gw.gateway.config.checkoutUrl).origin);
    assert.equal(claim.pathname, '/refunds/claim');
    assert.match(claim.searchParams.get('token') ?? '', /^rc_/);
    // The gateway's clock, to the microsecond, in UTC: 2026-11-22T07:05:31.123000+00:00.
    assert.equal(record!.refund_date, gw.clock.now().toISOString().replace('Z', '000+00:00'));
    assert.deepEqual(assertRefundList(await list(orderId), 200), made);
  });

  it('keeps amountToRefund at what is left after each refund, and a full refund takes exactly that', async () => {
    const { orderId } = await paidOrder(gw);
    assert.equal(assertRefundList(await list(orderId), 200).amountToRefund, PAID);
    assert.equal(assertRefundList(await create(orderId, refund(100_000)), 201).amountToRefund, 260_000);
    assert.equal(assertRefundList(await create(orderId, refund(60_000)), 201).amountToRefund, 200_000);
    const notAll = assertProblem(await create(orderId, refund(199_999, { refund_type: 'full' })), 422, 'amount');
    assert.match(notAll.detail ?? '', /200000 VND/);
    const full = assertRefundList(await create(orderId, refund(200_000, { refund_type: 'full' })), 201);
    assert.equal(full.amountToRefund, 0);
    assert.deepEqual(full.refundDetails.map((r) => [r.amount, r.refund_type]), [[100_000, 'partial'], [60_000, 'partial'], [200_000, 'full']]);
    assert.match(assertProblem(await create(orderId, refund(1)), 422, 'amount').detail ?? '', /already fully refunded/);
  });

  it('refuses more than what is left with 422 naming the amount, and stores nothing', async () => {
    const { orderId } = await paidOrder(gw);
    await create(orderId, refund(300_000));
    const counts = await rowCounts(gw.gateway.db);
    const problem = assertProblem(await create(orderId, refund(60_001)), 422, 'amount');
    assert.match(problem.detail ?? '', /60001 VND.*60000 VND/);
    assert.deepEqual(await rowCounts(gw.gateway.db), counts);
    assert.equal(assertRefundList(await list(orderId), 200).refundDetails.length, 1);
  });

  it('refuses a refund of an order that has not been paid; its list is empty with nothing to refund', async () => {
    const input = sampleLink();
    await gw.client.createPaymentLink(input);
    assertProblem(await create(input.merchant_order_id, refund(1_000)), 409);
    assert.deepEqual(assertRefundList(await list(input.merchant_order_id), 200, 0), { amountToRefund: 0, refundDetails: [] });
  });

  it('lists a FAILED refund without counting it against what is left', async () => {
    const { orderId } = await paidOrder(gw);
    const made = assertRefundList(await create(orderId, refund(50_000)), 201);
    assert.equal(made.amountToRefund, PAID - 50_000);
    await gw.client.cancelRefund(made.refundDetails[0]!.refund_id, { reason: 'asked by mistake' });
    const failed = assertRefundList(await list(orderId), 200);
    assert.deepEqual(failed.refundDetails.map((r) => [r.refund_status, r.psp_refund_id]), [['FAILED', '']]);
    assert.equal(failed.amountToRefund, PAID);
  });

  it('names each missing or malformed field of the request', async () => {
    const { orderId } = await paidOrder(gw);
    const valid = refund(1_000) as unknown as Record<string, unknown>;
    for (const path of Object.keys(valid)) {
      const { [path]: _dropped, ...rest } = valid;
      assert.equal(assertProblem(await create(orderId, rest), 422, path).errors?.find((e) => e.path === path)?.message, 'is required');
    }
    const cases: [string, unknown][] = [
      ['amount', 0],
      ['amount', -5],
      ['amount', 10.5],
      ['amount', '1000'],
      ['channel', 'PROVIDER_CRYPTO'],
      ['channel', 'provider'],
      ['refund_type', 'total'],
      ['description', ''],
      ['refund_reason', 'r'.repeat(501)],
    ];
    for (const [path, value] of cases) assertProblem(await create(orderId, { ...valid, [path]: value }), 422, path);
    assert.equal(assertRefundList(await list(orderId), 200).refundDetails.length, 0);
  });

  it('asks for a Bearer token: none, an unknown one or an expired one is 401 with a challenge', async () => {
    const { orderId } = await paidOrder(gw);
    for (const headers of [{}, { Authorization: '' }, { Authorization: `Basic ${gw.token}` }] as Record<string, string>[]) {
      const answer = await list(orderId, headers);
      assertProblem(answer, 401);
      assert.equal(answer.headers.get('www-authenticate'), 'Bearer realm="pay-checkout"');
    }
    const unknown = await list(orderId, bearer('at_not_a_token'));
    assertProblem(unknown, 401);
    assert.match(unknown.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    assertProblem(await create(orderId, refund(1_000), bearer('at_not_a_token')), 401);

    gw.clock.advance(3_599_000);
    assertRefundList(await list(orderId), 200);
    gw.clock.advance(1_000);
    const expired = await list(orderId);
    assertProblem(expired, 401);
    assert.match(expired.body.detail ?? '', /expired/);
    assertProblem(await create(orderId, refund(1_000)), 401);
    assert.equal(assertRefundList(await list(orderId, bearer(await accessToken(gw.url, gw.credentials))), 200).refundDetails.length, 0);
  });

  it("answers another merchant's order exactly as an order that does not exist", async () => {
    const { orderId } = await paidOrder(gw);
    const other = await gw.addMerchant();
    const foreign = bearer(await accessToken(gw.url, other.credentials));
    const missing = 'order-that-does-not-exist';
    for (const [theirs, nobodys] of [
      [await list(orderId, foreign), await list(missing, foreign)],
      [await create(orderId, refund(1_000), foreign), await create(missing, refund(1_000), foreign)],
    ] as const) {
      assertProblem(theirs, 404);
      assert.deepEqual(theirs.body, { ...nobodys.body, detail: nobodys.body.detail?.replace(missing, orderId) });
    }
    assert.equal(assertRefundList(await list(orderId), 200).refundDetails.length, 0);
  });

  it('never refunds more than was paid when 50 partial refunds race, and the list stays consistent', async () => {
    const { orderId, ref } = await paidOrder(gw);
    // 50 amounts from 5,000 to 14,800 VND: 494,000 VND in all, well past the 360,000 paid.
    const amounts = Array.from({ length: 50 }, (_, i) => 5_000 + ((i * 37) % 50) * 200);
    const answers = await Promise.all(amounts.map((amount) => create(orderId, refund(amount, { send_to: 'payer' }))));
    const accepted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    for (const answer of refused) assert.ok([409, 422].includes(answer.status), `${answer.status} ${JSON.stringify(answer.body)}`);
    assert.ok(refused.length > 0 && accepted.length > 0);
    for (const answer of accepted) assertRefundList(answer, 201);

    const final = assertRefundList(await list(orderId), 200);
    const total = final.refundDetails.reduce((sum, r) => sum + r.amount, 0);
    assert.ok(total <= PAID, `refunded ${total} of ${PAID}`);
    assert.equal(final.refundDetails.length, accepted.length);
    // Each accepted refund is in the list once, with the amount it asked for.
    assert.deepEqual(
      final.refundDetails.map((r) => r.amount).sort((a, b) => a - b),
      accepted.map((a) => a.body.refundDetails.at(-1)!.amount).sort((a, b) => a - b),
    );
    // Every refusal was right when it was made: what it asked for was more than what was left then,
    // which is at least what is left now.
    for (const answer of refused) {
      const asked = amounts[answers.indexOf(answer)]!;
      assert.ok(asked > final.amountToRefund, `refused ${asked} with ${final.amountToRefund} left`);
    }
    // Sent to the payer: one chain transaction back per accepted refund, at once.
    const [{ sent }] = (await gw.gateway.db.query<{ sent: number }>(
      `SELECT count(*)::int AS sent FROM sim_transactions t JOIN payments p ON t.from_address = p.address WHERE p.payment_link_ref = $1`,
      [ref],
    )) as [{ sent: number }];
    assert.equal(sent, accepted.length);
  });

  it('replays the first answer for the same Idempotency-Key and body without a second refund, and refuses the key with another body', async () => {
    const { orderId } = await paidOrder(gw);
    const key = { 'Idempotency-Key': 'refund-7f3a' };
    const first = assertRefundList(await create(orderId, refund(40_000), key), 201);
    const replay = await create(orderId, refund(40_000), key);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(assertRefundList(replay, 201), first);
    // Key order and white space are not the body's meaning: the same request.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(refund(40_000)).reverse()), null, 2);
    const again = await send<RefundList & Problem>(gw.url, 'POST', `/api/refund/createRefund/${orderId}`, { body: reordered, headers: { ...JSON_TYPE, ...bearer(), ...key } });
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const other = assertProblem(await create(orderId, refund(40_001), key), 422, 'Idempotency-Key');
    assert.match(other.detail ?? '', /different request/);
    assert.equal(assertRefundList(await list(orderId), 200).refundDetails.length, 1);
  });

  it('replays one refund to ten concurrent requests with one key', async () => {
    const { orderId } = await paidOrder(gw);
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(orderId, refund(10_000), { 'Idempotency-Key': 'burst-1' })));
    assert.deepEqual(answers.map((a) => a.status), Array<number>(10).fill(201));
    assert.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 9);
    for (const answer of answers) assert.deepEqual(answer.body, answers[0]!.body);
    assert.equal(assertRefundList(await list(orderId), 200).refundDetails.length, 1);
  });

  it('keeps no answer for a refused request, so its key can carry the corrected one; refuses a malformed key', async () => {
    const { orderId } = await paidOrder(gw);
    const key = { 'Idempotency-Key': 'refund-retry' };
    assertProblem(await create(orderId, refund(PAID + 1), key), 422, 'amount');
    assert.equal(assertRefundList(await create(orderId, refund(PAID), key), 201).amountToRefund, 0);
    assertProblem(await create(orderId, refund(1), { 'Idempotency-Key': 'k'.repeat(256) }), 400, 'Idempotency-Key');
  });
});
