// The element's pure logic (src/checkout/pay-checkout/state.ts): which screen shows for every combination of link,
// payment and failure; when the stream is needed; which payment wins; the contact form; the default asset.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { LINK_STATUSES, PAYMENT_STATUSES } from '../../src/contract/checkout.js';
import {
  amountToSend,
  canChangeCoin,
  canLeave,
  retryable,
  creditOf,
  lateTransfers,
  awaitsConfirmation,
  hasReceived,
  namedAsset,
  chooseMethod,
  clock,
  contactFormOpen,
  contactRequired,
  keptContact,
  contactFromBilling,
  defaultAsset,
  firstInvalid,
  follows,
  parseAssetKey,
  quoteDeadline,
  screenOf,
  supersedes,
  validateContact,
  walletUri,
} from '../../src/checkout/pay-checkout/state.js';
import { assetName, confirmationsSeen, excess } from '../../src/checkout/pay-checkout/later-state.js';
import { checkoutAsset, checkoutView, payment, transaction } from './fixtures.js';

const linkStatus = fc.constantFrom(...LINK_STATUSES);
const paymentStatus = fc.constantFrom(...PAYMENT_STATUSES);
const failure = fc.option(fc.constantFrom('missing_ref', 'not_found', 'link_expired', 'link_cancelled', 'conflict', 'invalid', 'unavailable', 'network', 'malformed' as const), { nil: undefined });

describe('screenOf', () => {
  test('loading until the view arrives, the error whenever loading failed', () => {
    assert.equal(screenOf(undefined, null, undefined).name, 'loading');
    fc.assert(
      fc.property(fc.boolean(), fc.option(paymentStatus, { nil: undefined }), linkStatus, (withView, status, link) => {
        const failed = { code: 'not_found' as const, message: 'gone' };
        const screen = screenOf(withView ? checkoutView({ status: link }) : undefined, status ? payment({ status }) : null, failed);
        assert.equal(screen.name, 'error');
        assert.equal(screen.name === 'error' && screen.failure, failed);
      }),
    );
  });

  test('a payment past awaiting_payment shows its own status, whatever the link says (but an expired quote on an expired link)', () => {
    fc.assert(
      fc.property(paymentStatus.filter((s) => s !== 'awaiting_payment'), linkStatus, (status, link) => {
        fc.pre(!(status === 'expired' && (link === 'expired' || link === 'cancelled'))); // nothing received: the expired- or cancelled-link error (below)
        const screen = screenOf(checkoutView({ status: link }), payment({ status }), undefined);
        assert.equal(screen.name, status);
        assert.equal('payment' in screen && screen.payment?.status, status);
      }),
    );
  });

  test('an awaiting payment: the payment view on an active link, the expired-link error once the link is over', () => {
    assert.equal(screenOf(checkoutView(), payment(), undefined).name, 'payment');
    const expired = screenOf(checkoutView({ status: 'expired' }), payment(), undefined);
    assert.equal(expired.name, 'error');
    assert.equal(expired.name === 'error' && expired.failure.code, 'link_expired');
  });

  test('an expired quote on an expired link (it ran out, or closed with the link): the expired-link error, never "get a new quote"', () => {
    const screen = screenOf(checkoutView({ status: 'expired' }), payment({ status: 'expired' }), undefined);
    assert.equal(screen.name, 'error');
    assert.equal(screen.name === 'error' && screen.failure.code, 'link_expired');
    // Part of it arrived in time: its view stays, with what was received (the merchant's to settle).
    const part = payment({ status: 'expired', received_crypto: '7.12', transactions: [transaction(3)] });
    assert.equal(screenOf(checkoutView({ status: 'expired', received_vnd: 180_000 }), part, undefined).name, 'expired');
    // Money that reached the address after the quote closed is still news to show.
    const late = payment({ status: 'expired', quote_expires_at: '2026-11-22T10:15:00.000Z', transactions: [transaction(0, { seen_at: '2026-11-22T10:16:00.000Z' })] });
    assert.equal(screenOf(checkoutView({ status: 'expired' }), late, undefined).name, 'late');
  });

  test('no payment: the order on an active link, paid on a paid one, the expired-link error on an expired one', () => {
    assert.equal(screenOf(checkoutView(), null, undefined).name, 'order');
    assert.deepEqual(screenOf(checkoutView({ status: 'paid' }), null, undefined), { name: 'paid', view: checkoutView({ status: 'paid' }), payment: null });
    assert.equal(screenOf(checkoutView({ status: 'expired' }), null, undefined).name, 'error');
  });

  test('a link the merchant cancelled: the cancelled-link error with the way back, whatever closed empty; money after it is late', () => {
    const cancelled = checkoutView({ status: 'cancelled' });
    for (const shown of [null, payment(), payment({ status: 'expired' })]) {
      const screen = screenOf(cancelled, shown, undefined);
      assert.equal(screen.name, 'error');
      assert.ok(screen.name === 'error');
      assert.equal(screen.failure.code, 'link_cancelled');
      assert.equal(canLeave(screen), true, 'the failure redirect is offered');
      assert.equal(retryable(screen.failure.code), false, 'no retry: the link takes no payment');
      assert.equal(follows(screen), false);
    }
    const late = payment({ status: 'expired', quote_expires_at: '2026-11-22T10:15:00.000Z', transactions: [transaction(0, { seen_at: '2026-11-22T10:16:00.000Z' })] });
    assert.equal(screenOf(cancelled, late, undefined).name, 'late', 'a transfer after the cancel: held for the merchant');
    assert.equal(screenOf(cancelled, payment({ status: 'paid_late' }), undefined).name, 'paid_late');
    const noWayBack = screenOf(checkoutView({ status: 'cancelled', failure_redirect_url: '' }), null, undefined);
    assert.equal(noWayBack.name === 'error' && canLeave(noWayBack), false);
  });

  test('every combination gives a screen that carries the view it was derived from', () => {
    fc.assert(
      fc.property(linkStatus, fc.option(paymentStatus, { nil: undefined }), failure, (link, status, code) => {
        const view = checkoutView({ status: link });
        const screen = screenOf(view, status ? payment({ status }) : null, code && { code, message: code });
        if (screen.name !== 'loading') assert.equal(screen.view, view);
      }),
    );
  });
});

describe('change coin', () => {
  test('the coins show in place of a payment the customer may leave: awaiting, underpaid or expired, on an active link', () => {
    fc.assert(
      fc.property(linkStatus, paymentStatus, (link, status) => {
        const view = checkoutView({ status: link });
        const open = payment({ status });
        const leavable = link === 'active' && ['awaiting_payment', 'underpaid', 'expired'].includes(status);
        assert.equal(canChangeCoin(view, open), leavable);
        const screen = screenOf(view, open, undefined, true);
        if (leavable) assert.equal(screen.name, 'order');
        else assert.deepEqual(screen, screenOf(view, open, undefined, false), 'asking changes nothing where the payment cannot be left');
      }),
    );
  });

  test('money on its way to a closed quote keeps its view: the coin cannot be changed under it', () => {
    const late = payment({ status: 'expired', quote_expires_at: '2026-11-22T10:15:00.000Z', transactions: [transaction(0, { seen_at: '2026-11-22T10:16:00.000Z' })] });
    assert.equal(canChangeCoin(checkoutView(), late), false);
    assert.equal(screenOf(checkoutView(), late, undefined, true).name, 'late');
  });
});

describe('a late transfer', () => {
  const closed = '2026-11-22T10:15:00.000Z';
  test('money first seen once the quote closed (at its instant too) is late, from its first sighting, before any block', () => {
    const inTime = transaction(3, { tx_hash: '0xa', seen_at: '2026-11-22T10:14:59.999Z' });
    const atClose = transaction(0, { tx_hash: '0xb', seen_at: closed });
    const after = transaction(0, { tx_hash: '0xc', seen_at: '2026-11-22T10:20:00.000Z' });
    const expired = payment({ status: 'expired', quote_expires_at: closed, transactions: [inTime, atClose, after] });
    assert.deepEqual(lateTransfers(expired).map((t) => t.tx_hash), ['0xb', '0xc']);
    assert.equal(screenOf(checkoutView(), expired, undefined).name, 'late');
    // Only what came in time: the plain expired view, with its credit.
    assert.equal(screenOf(checkoutView(), payment({ status: 'expired', quote_expires_at: closed, transactions: [inTime] }), undefined).name, 'expired');
  });

  test('a quote closed early by another payment closes at that instant', () => {
    const superseded = payment({ status: 'expired', quote_expires_at: closed, superseded_at: '2026-11-22T10:05:00.000Z', transactions: [transaction(0, { seen_at: '2026-11-22T10:06:00.000Z' })] });
    assert.equal(lateTransfers(superseded).length, 1);
  });

  test('an open quote has no late transfer, whatever its clock says', () => {
    for (const status of ['awaiting_payment', 'underpaid'] as const) {
      assert.deepEqual(lateTransfers(payment({ status, quote_expires_at: closed, transactions: [transaction(0, { seen_at: '2026-11-22T10:20:00.000Z' })] })), []);
    }
  });
});

describe('credit across quotes', () => {
  test('nothing to say until closed quotes received something; then received and left add up to the order', () => {
    assert.equal(creditOf(checkoutView()), undefined);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 10_000_000 }), (amount, received) => {
        const credit = creditOf(checkoutView({ amount, received_vnd: received }))!;
        assert.equal(credit.received, received);
        assert.equal(credit.left, Math.max(0, amount - received));
        assert.ok(credit.left >= 0);
      }),
    );
  });
});

describe('follows', () => {
  test('the stream is open once a payment exists, while the link is active or the payment is not final', () => {
    fc.assert(
      fc.property(linkStatus, fc.option(paymentStatus, { nil: undefined }), (link, status) => {
        const screen = screenOf(checkoutView({ status: link }), status ? payment({ status }) : null, undefined);
        const open = status === 'awaiting_payment' || status === 'confirming' || status === 'underpaid';
        const expected = screen.name !== 'error' && status !== undefined && (link === 'active' || open);
        assert.equal(follows(screen), expected, `${link} link, ${status ?? 'no'} payment, ${screen.name} screen`);
      }),
    );
    assert.equal(follows({ name: 'loading' }), false);
  });
});

describe('supersedes', () => {
  test('news of the same payment always replaces it; another payment only when opened no earlier', () => {
    const current = payment({ created_at: '2026-11-22T10:00:00.000Z' });
    assert.equal(supersedes(null, current), true);
    assert.equal(supersedes(current, payment({ status: 'expired', created_at: '2020-01-01T00:00:00.000Z' })), true);
    assert.equal(supersedes(current, payment({ payment_id: 'pay_0', created_at: '2026-11-22T09:59:59.000Z' })), false);
    assert.equal(supersedes(current, payment({ payment_id: 'pay_2', created_at: '2026-11-22T10:00:01.000Z' })), true);
  });

  test('an answer about the same payment asked for before the stream’s latest news is not news; another payment still is', () => {
    const current = payment({ created_at: '2026-11-22T10:00:00.000Z' });
    assert.equal(supersedes(current, payment({ status: 'expired' }), true), false);
    assert.equal(supersedes(current, payment({ status: 'expired' }), false), true);
    assert.equal(supersedes(current, payment({ payment_id: 'pay_2', created_at: '2026-11-22T10:00:01.000Z' }), true), true);
    assert.equal(supersedes(null, current, true), true);
  });
});

describe('methods and assets', () => {
  test("the gateway's first available asset is picked first (it lists its default first)", () => {
    const method = checkoutView().methods[0]!;
    assert.equal(defaultAsset(method), 'ETH:ETHEREUM');
    assert.equal(defaultAsset({ ...method, assets: method.assets.filter((a) => a.asset !== 'ETH') }), 'USDT:TRON');
    assert.equal(defaultAsset({ ...method, assets: [] }), '');
    assert.equal(defaultAsset(undefined), '');
    // An asset whose network the gateway cannot see is never picked for the customer.
    const ethereumDown = method.assets.map((a) => (a.network === 'ETHEREUM' ? { ...a, available: false } : a));
    assert.equal(defaultAsset({ ...method, assets: ethereumDown }), 'USDT:TRON');
    assert.equal(defaultAsset({ ...method, assets: method.assets.map((a) => ({ ...a, available: false })) }), '');
    assert.deepEqual(parseAssetKey('BTC:BITCOIN'), { asset: 'BTC', network: 'BITCOIN' });
  });

  test('the method of the attributes when the link has it, else the first', () => {
    const view = checkoutView();
    assert.equal(chooseMethod(view, 'PROVIDER', 'PROVIDER_CRYPTO'), view.methods[0]);
    assert.equal(chooseMethod(view, 'OTHER', 'CARD'), view.methods[0]);
    assert.equal(chooseMethod(checkoutView({ methods: [] }), 'PROVIDER', 'PROVIDER_CRYPTO'), undefined);
  });
});

describe('contact', () => {
  test('the billing details stand as the contact unless the link asks for a guest or has no name and no email', () => {
    assert.deepEqual(contactFromBilling(checkoutView()), { name: 'Nguyễn Văn An', email: 'an@example.com', phone: '' });
    assert.equal(contactFormOpen(checkoutView()), false);
    assert.equal(contactFormOpen(checkoutView({ default_guest_checkout: true })), true);
    assert.equal(contactFormOpen(checkoutView({ billing_details: {} })), true);
    assert.equal(contactFormOpen(checkoutView({ billing_details: undefined })), true);
    assert.deepEqual(contactFromBilling(checkoutView({ billing_details: undefined })), { name: '', email: '', phone: '' });
  });

  test('a closed form is valid as it is; an open one needs a name and an email, and a phone only if given', () => {
    assert.deepEqual(validateContact({ name: '', email: '', phone: '' }, false), { invalid: {}, customer: {} });
    const empty = validateContact({ name: ' ', email: '', phone: '' }, true);
    assert.deepEqual(empty, { invalid: { name: 'nameRequired', email: 'emailInvalid' } });
    assert.equal(firstInvalid(empty.invalid), 'name');
    assert.equal(firstInvalid(validateContact({ name: 'An', email: 'an@', phone: 'x' }, true).invalid), 'email');
    assert.deepEqual(validateContact({ name: 'An', email: 'an@example.com', phone: 'call me' }, true).invalid, { phone: 'phoneInvalid' });
    assert.deepEqual(validateContact({ name: ' An ', email: ' an@example.com ', phone: '' }, true), {
      invalid: {},
      customer: { name: 'An', email: 'an@example.com' },
    });
  });

  test('the contact is required only when the link asks for it: a guest checkout, or billing details naming the customer', () => {
    assert.equal(contactRequired(checkoutView()), true, 'billing details with a name and an email');
    assert.equal(contactRequired(checkoutView({ default_guest_checkout: true, billing_details: undefined })), true);
    assert.equal(contactRequired(checkoutView({ billing_details: {} })), false);
    assert.equal(contactRequired(checkoutView({ billing_details: undefined })), false);
    assert.equal(contactRequired(checkoutView({ billing_details: { billing_phone: '+84 903 123 456' } })), false, 'a phone alone asks for nothing');
  });

  test('an optional open form takes nothing at all, and checks each field given by the same rules', () => {
    assert.deepEqual(validateContact({ name: ' ', email: '', phone: '' }, true, false), { invalid: {}, customer: {} });
    assert.deepEqual(validateContact({ name: '', email: 'an@', phone: '' }, true, false).invalid, { email: 'emailInvalid' });
    assert.deepEqual(validateContact({ name: 'x'.repeat(201), email: '', phone: 'call me' }, true, false).invalid, { name: 'nameRequired', phone: 'phoneInvalid' });
    assert.deepEqual(validateContact({ name: ' An ', email: '', phone: '' }, true, false), { invalid: {}, customer: { name: 'An' } });
    // The required form as before.
    assert.deepEqual(validateContact({ name: '', email: '', phone: '' }, true, true).invalid, { name: 'nameRequired', email: 'emailInvalid' });
  });

  test('a kept contact is read back only when it is one: anything else in storage is none', () => {
    assert.deepEqual(keptContact('{"name":"An","email":"an@example.com","phone":""}'), { name: 'An', email: 'an@example.com', phone: '' });
    assert.deepEqual(keptContact('{"name":"An","email":"","phone":"","extra":1}'), { name: 'An', email: '', phone: '' }, 'only its fields');
    for (const stored of [null, undefined, '', 'null', '42', '"An"', '[]', '{"name":"An"}', '{"name":1,"email":"","phone":""}', '{not json']) {
      assert.equal(keptContact(stored), undefined, String(stored));
    }
  });

  test('whatever is typed, the contact sent is trimmed and present only when nothing is invalid', () => {
    fc.assert(
      fc.property(fc.string(), fc.oneof(fc.string(), fc.emailAddress()), fc.oneof(fc.string(), fc.constant('+84 903 123 456')), (name, email, phone) => {
        const { invalid, customer } = validateContact({ name, email, phone }, true);
        assert.equal(customer === undefined, Object.keys(invalid).length > 0);
        for (const value of Object.values(customer ?? {})) assert.equal(value, value.trim());
        assert.ok(!customer || (customer.name && customer.email), 'a valid guest has a name and an email');
      }),
    );
  });
});

describe('payment figures', () => {
  test('the amount to send is the remainder once anything has arrived, confirmed or not', () => {
    assert.equal(amountToSend(payment()), '14.24');
    assert.equal(amountToSend(payment({ status: 'underpaid', received_crypto: '10', remaining_crypto: '4.24' })), '4.24');
    assert.equal(amountToSend(payment({ received_crypto: '0.01', remaining_crypto: '14.23', transactions: [transaction(0)] })), '14.23');
    assert.equal(hasReceived(payment({ received_crypto: '0.000001' })), true);
    assert.equal(hasReceived(payment({ received_crypto: '0.000' })), false);
  });

  test('money waits for confirmation while any transaction has fewer than required', () => {
    assert.equal(awaitsConfirmation(payment()), false);
    assert.equal(awaitsConfirmation(payment({ transactions: [transaction(3), transaction(0)] })), true);
    assert.equal(awaitsConfirmation(payment({ transactions: [transaction(3)] })), false);
  });

  test('the excess is received minus due, exactly, whatever the decimals of either', () => {
    assert.equal(excess({ received_crypto: '15.664', amount_crypto: '14.24' }), '1.424');
    assert.equal(excess({ received_crypto: '14.24', amount_crypto: '14.24' }), '0');
    assert.equal(excess({ received_crypto: '1', amount_crypto: '2' }), '0');
    assert.equal(excess({ received_crypto: '0.00000003', amount_crypto: '0.00000001' }), '0.00000002');
    const decimal = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 18 }));
    const text = ([units, places]: [bigint, number]) => {
      const digits = units.toString().padStart(places + 1, '0');
      return places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
    };
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        // Scaled to 18 places, received − due in integers is the oracle.
        const scaled = ([units, places]: [bigint, number]) => units * 10n ** BigInt(18 - places);
        const expected = scaled(a) - scaled(b);
        const got = excess({ received_crypto: text(a), amount_crypto: text(b) });
        assert.equal(scaled([BigInt(got.replace('.', '')), got.split('.')[1]?.length ?? 0]), expected > 0n ? expected : 0n);
        assert.doesNotMatch(got, /\.\d*0$/, 'no trailing zeros');
      }),
    );
  });

  test("assets are named as wallets name them, by the gateway's token standard", () => {
    const view = checkoutView();
    assert.equal(assetName(namedAsset(view, { asset: 'USDT', network: 'TRON' })), 'USDT · TRC-20');
    assert.equal(assetName(namedAsset(view, { asset: 'ETH', network: 'ETHEREUM' })), 'ETH');
    assert.equal(assetName(namedAsset(view, { asset: 'BTC', network: 'BITCOIN' })), 'BTC');
    const bsc = checkoutAsset({ asset: 'USDT', network: 'BSC_TESTNET', network_name: 'BNB Smart Chain Testnet', token_standard: 'BEP-20', chain_id: 97 });
    const withBsc = checkoutView({ methods: [{ ...view.methods[0]!, assets: [...view.methods[0]!.assets, bsc] }] });
    assert.equal(namedAsset(withBsc, payment({ asset: 'USDT', network: 'BSC_TESTNET' })), bsc);
    assert.equal(assetName(bsc), 'USDT · BEP-20');
    // A payment in an asset the gateway no longer offers goes by its ids.
    const gone = namedAsset(view, { asset: 'DOGE', network: 'DOGECOIN' });
    assert.deepEqual([assetName(gone), gone.network_name], ['DOGE', 'DOGECOIN']);
  });

  test('only bitcoin: and ethereum: URIs open a wallet', () => {
    assert.equal(walletUri(payment()), undefined);
    assert.equal(walletUri(payment({ payment_uri: 'bitcoin:tb1q?amount=0.1' })), 'bitcoin:tb1q?amount=0.1');
    assert.equal(walletUri(payment({ payment_uri: 'javascript:alert(1)' })), undefined);
  });

  test('confirmations count the least confirmed transaction', () => {
    assert.equal(confirmationsSeen(payment()), 0);
    assert.equal(confirmationsSeen(payment({ transactions: [transaction(3), transaction(1)] })), 1);
  });

  test('the rate lock counts down only while the customer may still send', () => {
    const deadline = Date.parse(payment().quote_expires_at);
    for (const status of PAYMENT_STATUSES) {
      const expected = status === 'awaiting_payment' || status === 'underpaid' ? deadline : null;
      assert.equal(quoteDeadline(payment({ status })), expected, status);
    }
    assert.equal(quoteDeadline(null), null);
  });

  test('the countdown reads m:ss', () => {
    assert.equal(clock(0), '0:00');
    assert.equal(clock(65), '1:05');
    assert.equal(clock(900), '15:00');
  });
});
