// The usual withdrawal fee of each asset, from the gateway's configuration (WITHDRAWAL_FEES over the defaults of
// docs/networks.md), served in the checkout view for the element's "I pay from an exchange"; every bad entry refused
// at start in one line naming it. Store: any (it runs in the PGlite pass only, scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { networksFrom } from '../../src/sandbox/chains/configuration.js';
import { checkoutApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';
import { configRefusal } from '../helpers/config.js';

const feesOf = (networks: ReturnType<typeof networksFrom>) =>
  Object.fromEntries(networks.flatMap((n) => n.assets.map((a) => [`${a.asset}:${n.id}`, a.withdrawal_fee])));

describe('withdrawal fees in the configuration', () => {
  it('defaults to the usual fees: USDT on TRON 1, on Ethereum 4; WITHDRAWAL_FEES overrides one and keeps the others', () => {
    assert.deepEqual(feesOf(networksFrom({})), { 'USDT:TRON': '1', 'USDT:ETHEREUM': '4', 'ETH:ETHEREUM': '0.0015', 'BTC:BITCOIN': '0.0002' });
    assert.deepEqual(feesOf(networksFrom({ WITHDRAWAL_FEES: ' USDT:TRON=1.5, BTC:BITCOIN=0 ' })), { 'USDT:TRON': '1.5', 'USDT:ETHEREUM': '4', 'ETH:ETHEREUM': '0.0015', 'BTC:BITCOIN': '0' });
  });

  it('refuses an entry that is no ASSET:NETWORK=FEE, names no configured asset, or is no bounded decimal of the asset\'s places', () => {
    assert.deepEqual(configRefusal({ WITHDRAWAL_FEES: 'USDT-TRON:1' }), ['WITHDRAWAL_FEES: "USDT-TRON:1" must be ASSET:NETWORK=FEE, such as USDT:TRON=1']);
    assert.match(configRefusal({ WITHDRAWAL_FEES: 'USDT:BSC=1' })[0]!, /^WITHDRAWAL_FEES: USDT:BSC is not a configured asset on its network \(configured: USDT:TRON, USDT:ETHEREUM, ETH:ETHEREUM, BTC:BITCOIN\)$/);
    assert.deepEqual(configRefusal({ WITHDRAWAL_FEES: 'USDT:TRON=1,5' })[0], 'WITHDRAWAL_FEES: "5" must be ASSET:NETWORK=FEE, such as USDT:TRON=1');
    assert.deepEqual(configRefusal({ WITHDRAWAL_FEES: 'USDT:TRON=-1' }), ['WITHDRAWAL_FEES: USDT:TRON must be a decimal string such as 1 or 0.0015, got "-1"']);
    assert.deepEqual(configRefusal({ WITHDRAWAL_FEES: 'USDT:TRON=1e3' }), ['WITHDRAWAL_FEES: USDT:TRON must be a decimal string such as 1 or 0.0015, got "1e3"']);
    assert.deepEqual(configRefusal({ WITHDRAWAL_FEES: 'USDT:TRON=0.0000001' }), ['WITHDRAWAL_FEES: USDT:TRON has at most 6 decimal places, got "0.0000001"']);
    assert.deepEqual(configRefusal({ WITHDRAWAL_FEES: 'USDT:TRON=1000' }), ['WITHDRAWAL_FEES: USDT:TRON must be below 1000 USDT, got "1000"']);
  });
});

describe(`withdrawal fees in the checkout view (${storageName})`, () => {
  const gw = useTestGateway({ config: { networks: networksFrom({ WITHDRAWAL_FEES: 'USDT:TRON=0.8' }) } });

  it('gives each asset its fee and the view the tolerance in basis points', async () => {
    const link = await gw.client.createPaymentLink(sampleLink());
    const { body: view } = await checkoutApi(gw.url, link.payment_link_ref).view();
    assert.deepEqual(Object.fromEntries(view.methods[0]!.assets.map((a) => [`${a.asset}:${a.network}`, a.withdrawal_fee])), {
      'USDT:TRON': '0.8',
      'USDT:ETHEREUM': '4',
      'ETH:ETHEREUM': '0.0015',
      'BTC:BITCOIN': '0.0002',
    });
    assert.equal(view.tolerance_bps, 50);
  });
});
