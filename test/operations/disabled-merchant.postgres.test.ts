// A merchant the operator disables (storage/merchants.ts, disableMerchant), seen from a second gateway process on the
// same PostgreSQL database: its token and its portal session end there at once (the NOTIFY on MERCHANTS_CHANNEL, not
// the caches running out), its credentials get no token, its links open no payment, and money that still reaches one
// of its addresses is credited and held for it, and refundable (docs/operations.md, "A disabled merchant").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MERCHANT_DISABLED, type CheckoutView, type Payment } from '../../src/contract/index.js';
import { startTestGateway, sampleLink, type TestGateway } from '../helpers/gateway.js';
import { startGatewayProcess, urlInSchema, type GatewayProcess } from '../helpers/process.js';
import { until } from '../helpers/until.js';

const databaseUrl = process.env.TEST_DATABASE_URL!;
const OPEN = { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' } as const;
/** The longest a token read is trusted without a word from the database (services/merchant/tokens.ts, CACHE_MS). */
const TOKEN_CACHE_MS = 5_000;

describe('a disabled merchant, seen from a second process (PostgreSQL)', () => {
  const schema = `disabled_${process.pid}`;
  let gw: TestGateway;
  let second: GatewayProcess;

  before(async () => {
    gw = await startTestGateway({ schema });
    // The demo's process: the gateway and the portal on one port, as `npm start` runs them.
    second = await startGatewayProcess({ DATABASE_URL: urlInSchema(databaseUrl, schema), SANDBOX_BLOCK_INTERVAL_MS: '0' }, { command: ['--import', 'tsx', 'demo/main.ts'] });
  });
  after(async () => {
    await second?.kill();
    await gw?.close();
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it('ends its token and session there at once, refuses its credentials and new payments, and credits and holds a late transfer', async (t) => {
    const other = await gw.addMerchant('Disabled Merchant');
    const merchantId = (await gw.gateway.merchants.byMerchantKey(other.credentials.merchantKey))!.merchant_id;
    const api = (path: string, init: RequestInit = {}) => fetch(`${second.url}${path}`, init);
    const tokenRequest = () =>
      api('/api/v2/oauth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: other.credentials.clientId, client_secret: other.credentials.clientSecret }),
      });
    const { access_token: token } = (await (await tokenRequest()).json()) as { access_token: string };
    const bearer = { Authorization: `Bearer ${token}` };

    // A portal session of the merchant in the second process.
    const portal = { Origin: second.url, 'Content-Type': 'application/json' };
    const signIn = await api('/demo/sign-in', { method: 'POST', headers: portal, body: JSON.stringify({ client_id: other.credentials.clientId, client_secret: other.credentials.clientSecret }) });
    assert.equal(signIn.status, 200, await signIn.clone().text());
    const cookie = signIn.headers.get('Set-Cookie')!.split(';')[0]!;

    // Its links: one whose first payment was superseded (its address no longer asks for anything), and one never opened.
    const { payment_link_ref: opened } = await other.client.createPaymentLink(sampleLink());
    const { payment_link_ref: untouched } = await other.client.createPaymentLink(sampleLink());
    const { payment: superseded } = await gw.gateway.customerCheckout.open(opened, OPEN);
    await gw.gateway.customerCheckout.open(opened, { ...OPEN, asset: 'ETH', network: 'ETHEREUM' });

    // Both work in the second process before (and so are in its caches).
    assert.equal((await api('/api/paymentLink', { headers: bearer })).status, 200);
    assert.equal((await api('/demo/api/transactions', { headers: { Cookie: cookie } })).status, 200);
    const viewBefore = (await (await api(`/api/checkout/${untouched}`)).json()) as CheckoutView;
    assert.ok(viewBefore.methods[0]!.assets.some((a) => a.available));

    assert.ok(await gw.gateway.merchants.disable(merchantId));

    const refusedToken = await until(() => api('/api/paymentLink', { headers: bearer }), (r) => r.status === 401, TOKEN_CACHE_MS * 2);
    t.diagnostic(`the token was refused in the second process ${Math.round(refusedToken.ms)} ms after the merchant was disabled`);
    assert.equal(refusedToken.value.status, 401);
    assert.equal(((await refusedToken.value.json()) as { detail: string }).detail, MERCHANT_DISABLED);
    // The NOTIFY, not the cache running out, ended it.
    assert.ok(refusedToken.ms < TOKEN_CACHE_MS, `${Math.round(refusedToken.ms)} ms`);

    const session = await api('/demo/api/transactions', { headers: { Cookie: cookie } });
    assert.equal(session.status, 401);
    assert.equal(((await session.json()) as { detail: string }).detail, MERCHANT_DISABLED);
    // Ended, not only refused once: the cookie names no session any more.
    assert.equal((await api('/demo/api/session', { headers: { Cookie: cookie } })).status, 401);

    const refusedCredentials = await tokenRequest();
    assert.equal(refusedCredentials.status, 401);
    assert.deepEqual(await refusedCredentials.json(), { error: 'invalid_client', error_description: MERCHANT_DISABLED });
    // A wrong secret is told nothing of it.
    const wrong = await api('/api/v2/oauth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: other.credentials.clientId, client_secret: 'not-it' }),
    });
    assert.doesNotMatch(await wrong.text(), /disabled/);
    await assert.rejects(other.client.createPaymentLink(sampleLink()), (error: Error) => error.message === MERCHANT_DISABLED);

    // Its links take no new payment, and their view offers no coin.
    const refusedOpen = await api(`/api/checkout/${untouched}/payments`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(OPEN) });
    assert.equal(refusedOpen.status, 409);
    assert.match(((await refusedOpen.json()) as { detail: string }).detail, /no longer available/);
    const viewAfter = (await (await api(`/api/checkout/${untouched}`)).json()) as CheckoutView;
    assert.ok(viewAfter.methods[0]!.assets.every((a) => !a.available));
    const refusedSwitch = await api(`/api/checkout/${opened}/payments`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(OPEN) });
    assert.equal(refusedSwitch.status, 409);

    // Money that reaches the superseded address now is credited and held, as the second process shows it.
    await gw.gateway.wallet.transfer({ to: superseded.address, asset: 'USDT', network: 'TRON', amount: superseded.amount_crypto });
    await gw.gateway.sandboxControls.mine(superseded.confirmations_required, 'TRON');
    const held = await until(
      async () => (await (await api(`/api/checkout/${opened}/payments/${superseded.payment_id}`)).json()) as Payment,
      (p) => p.status === 'paid_late',
      10_000,
    );
    assert.equal(held.value.status, 'paid_late');
    assert.equal(held.value.received_crypto, superseded.amount_crypto);

    // And the operator can still return it: the refund machinery does not ask whether the merchant is disabled.
    const order = ((await (await api(`/api/checkout/${opened}`)).json()) as CheckoutView).merchant_order_id;
    const refund = { amount: 360_000, channel: 'PROVIDER', description: 'held money returned', refund_type: 'full', refund_reason: 'merchant disabled', send_to: 'payer' } as const;
    const { value: refunds } = await gw.gateway.refunds.create(merchantId, order, refund, { key: undefined, method: 'POST', path: `/api/refund/createRefund/${order}`, body: refund });
    assert.equal(refunds.amountToRefund, 0);
    assert.equal(refunds.refundDetails.length, 1);
  });
});
