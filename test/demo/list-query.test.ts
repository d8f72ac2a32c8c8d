// The transactions page's filters (demo/scripts/portal/list-query.ts): from and to the page's address, and the read
// API's query for them; days are the merchant's own, both included.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressOf, apiQuery, assetChoices, filtersFrom, NO_FILTERS, pageFrom, searchOf } from '../../demo/scripts/portal/list-query.js';
import type { ChainNetwork } from '../../src/contract/index.js';

describe('the transactions filters', () => {
  it('round-trips through the address, dropping what is not a filter value', () => {
    const filters = { q: 'DH-2026', status: 'partly_refunded' as const, held: 'true' as const, asset: 'USDT:TRON', from: '2026-11-01', to: '2026-11-22', sort: '-amount' as const };
    assert.deepEqual(filtersFrom(searchOf(filters)), filters);
    assert.deepEqual(filtersFrom(new URLSearchParams('status=held')), { ...NO_FILTERS, held: 'true' }, 'an address from before held combined');
    assert.equal(filtersFrom(new URLSearchParams('status=constructor')).status, '');
    assert.equal(filtersFrom(new URLSearchParams('sort=-created_at')).sort, '', 'the default order says nothing');
    assert.equal(filtersFrom(new URLSearchParams('sort=name')).sort, '');
    assert.equal(apiQuery({ ...NO_FILTERS, sort: 'amount' }, { limit: 10 }).get('sort'), 'amount');
    assert.equal(searchOf(NO_FILTERS).toString(), '');
    assert.deepEqual(filtersFrom(new URLSearchParams('status=paid_late&asset=usdt:tron&from=yesterday&q=%20x%20')), { ...NO_FILTERS, q: 'x' });
    for (const asset of ['USDT', 'USDT:TRON:X', ':TRON', 'USDT TRON']) assert.equal(filtersFrom(new URLSearchParams({ asset })).asset, '', asset);
    // Which coins exist is the gateway's to say: a coin of a network added by configuration is a filter value too.
    assert.equal(filtersFrom(new URLSearchParams({ asset: 'USDT:BSC_TESTNET' })).asset, 'USDT:BSC_TESTNET');
  });

  it("offers every coin of the gateway's networks, with the gateway's labels", () => {
    const network = (id: string, assets: [string, string][]) =>
      ({ network: id, assets: assets.map(([asset, label]) => ({ asset, label })) }) as unknown as ChainNetwork;
    const choices = assetChoices([
      network('TRON', [['USDT', 'USDT · TRC-20 (TRON)']]),
      network('BSC_TESTNET', [['USDT', 'USDT · BEP-20 (BNB Smart Chain Testnet)'], ['BNB', 'BNB (BNB Smart Chain Testnet)']]),
    ]);
    assert.deepEqual(choices, [
      { value: '', label: 'Any coin' },
      { value: 'USDT:TRON', label: 'USDT · TRC-20 (TRON)' },
      { value: 'USDT:BSC_TESTNET', label: 'USDT · BEP-20 (BNB Smart Chain Testnet)' },
      { value: 'BNB:BSC_TESTNET', label: 'BNB (BNB Smart Chain Testnet)' },
    ]);
  });

  it('asks the read API for held money, an asset and its network, and whole days where the browser is', () => {
    const query = apiQuery({ q: 'lan@', status: '', held: 'true', asset: 'USDT:ETHEREUM', from: '2026-11-01', to: '2026-11-22', sort: '' }, { limit: 25, cursor: 'abc' });
    assert.equal(query.get('held'), 'true');
    assert.equal(query.get('status'), null);
    assert.deepEqual([query.get('asset'), query.get('network'), query.get('q'), query.get('limit'), query.get('cursor')], ['USDT', 'ETHEREUM', 'lan@', '25', 'abc']);
    // Local midnights, whatever the time zone the test runs in: the 1st begins the range, the 23rd ends it.
    assert.equal(query.get('created_from'), new Date(2026, 10, 1).toISOString());
    assert.equal(query.get('created_before'), new Date(2026, 10, 23).toISOString());
    assert.deepEqual([...apiQuery({ ...NO_FILTERS, status: 'expired' }, { limit: 10 }).keys()].sort(), ['limit', 'status']);
    // A paid order by how much of it went back, and held money beside any status.
    const statusOf = (status: typeof NO_FILTERS.status, held: typeof NO_FILTERS.held = '') =>
      Object.fromEntries([...apiQuery({ ...NO_FILTERS, status, held }, { limit: 10 })].filter(([name]) => name !== 'limit'));
    assert.deepEqual(statusOf('paid'), { status: 'paid', refunded: 'none' });
    assert.deepEqual(statusOf('partly_refunded'), { status: 'paid', refunded: 'partly' });
    assert.deepEqual(statusOf('refunded', 'true'), { status: 'paid', refunded: 'fully', held: 'true' });
  });

  it('keeps the page and its size in the address, and opens the first page for anything else', () => {
    const page = { limit: 50, cursors: [undefined, 'WyIyMDI2', 'eyJh-_9'] };
    const filters = { ...NO_FILTERS, q: 'DH' };
    const address = addressOf(filters, page);
    assert.equal(address.toString(), 'q=DH&per=50&pages=WyIyMDI2.eyJh-_9');
    assert.deepEqual(pageFrom(address), page);
    assert.deepEqual(filtersFrom(address), filters);
    assert.equal(addressOf(NO_FILTERS, { limit: 25, cursors: [undefined] }).toString(), '', 'the first page at the default size says nothing');
    for (const bad of ['per=7', 'per=abc', 'pages=a%20b', 'pages=..', `pages=${'a.'.repeat(101)}`]) {
      assert.deepEqual(pageFrom(new URLSearchParams(bad)), { limit: 25, cursors: [undefined] }, bad);
    }
  });
});
