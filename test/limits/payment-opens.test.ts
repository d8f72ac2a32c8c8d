// A link's payments are bounded, and so are the opens a minute of one link and of one client address
// (docs/security.md, "Limits"): alternating between two coins cannot grow a link without end.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../src/sandbox/config.js';
import { checkoutApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

const COINS = [
  ['USDT', 'TRON'],
  ['USDT', 'ETHEREUM'],
] as const;

describe(`payment opens are limited (${storageName})`, () => {
  const gw = useTestGateway({ config: { limits: { ...DEFAULT_LIMITS, paymentsPerLink: 6, opensPerLinkPerMinute: 1_000, opensPerClientPerMinute: 1_000 } }, reset: true });
  const newLink = async () => (await gw.client.createPaymentLink(sampleLink())).payment_link_ref;

  it('answers 429 with Retry-After once a link has its cap of payments, and the link holds no more', async () => {
    const ref = await newLink();
    const checkout = checkoutApi(gw.url, ref);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await checkout.open(COINS[i % 2]![0], COINS[i % 2]![1])).status);
    // Past the cap, only the coin of the payment still open answers (200: the same payment).
    assert.deepEqual(statuses, [201, 201, 201, 201, 201, 201, 429, 200, 429, 200]);
    const refused = await fetch(`${gw.url}/api/checkout/${ref}/payments`, {
      method: 'POST',
      body: new Blob([JSON.stringify({ pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' })]),
    });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('content-type'), 'application/problem+json');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.match(((await refused.json()) as { detail: string }).detail, /6 payments/);
    const [row] = await gw.gateway.db.query<{ count: number }>('SELECT count(*)::int AS count FROM payments WHERE payment_link_ref = $1', [ref]);
    assert.equal(row?.count, 6);
    // The open payment is still the customer's: opening it again answers it.
    assert.equal((await checkout.open(...COINS[1])).status, 200);
  });
});

describe(`opens a minute (${storageName})`, () => {
  const gw = useTestGateway({ config: { limits: { ...DEFAULT_LIMITS, opensPerLinkPerMinute: 4, opensPerClientPerMinute: 7 } } });

  it('counts the opens of one link and of one client address, and forgets them when the minute ends', async () => {
    const [a, b] = [(await gw.client.createPaymentLink(sampleLink())).payment_link_ref, (await gw.client.createPaymentLink(sampleLink())).payment_link_ref];
    const onA: number[] = [];
    for (let i = 0; i < 5; i++) onA.push((await checkoutApi(gw.url, a).open('USDT', 'TRON')).status);
    assert.deepEqual(onA, [201, 200, 200, 200, 429], 'the link allows 4 a minute');
    const onB: number[] = [];
    for (let i = 0; i < 3; i++) onB.push((await checkoutApi(gw.url, b).open('USDT', 'TRON')).status);
    assert.deepEqual(onB, [201, 200, 429], 'the address allows 7 a minute over every link');
    gw.clock.advance(61_000);
    assert.equal((await checkoutApi(gw.url, b).open('USDT', 'TRON')).status, 200);
  });
});
