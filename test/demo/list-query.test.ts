// The transactions page's filters (demo/scripts/portal/list-query.ts): from and to the page's address, and the read
// API's query for them; days are the merchant's own, both included.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiQuery, filtersFrom, NO_FILTERS, searchOf } from '../../demo/scripts/portal/list-query.js';

describe('the transactions filters', () => {
  it('round-trips through the address, dropping what is not a filter value', () => {
    const filters = { q: 'DH-2026', status: 'held' as const, asset: 'USDT:TRON', from: '2026-11-01', to: '2026-11-22' };
    assert.deepEqual(filtersFrom(searchOf(filters)), filters);
    assert.equal(searchOf(NO_FILTERS).toString(), '');
    assert.deepEqual(filtersFrom(new URLSearchParams('status=paid_late&asset=DOGE:TRON&from=yesterday&q=%20x%20')), { ...NO_FILTERS, q: 'x' });
  });

  it('asks the read API for held money, an asset and its network, and whole days where the browser is', () => {
    const query = apiQuery({ q: 'lan@', status: 'held', asset: 'USDT:ETHEREUM', from: '2026-11-01', to: '2026-11-22' }, { limit: 25, cursor: 'abc' });
    assert.equal(query.get('held'), 'true');
    assert.equal(query.get('status'), null);
    assert.deepEqual([query.get('asset'), query.get('network'), query.get('q'), query.get('limit'), query.get('cursor')], ['USDT', 'ETHEREUM', 'lan@', '25', 'abc']);
    // Local midnights, whatever the time zone the test runs in: the 1st begins the range, the 23rd ends it.
    assert.equal(query.get('created_from'), new Date(2026, 10, 1).toISOString());
    assert.equal(query.get('created_before'), new Date(2026, 10, 23).toISOString());
    assert.deepEqual([...apiQuery({ ...NO_FILTERS, status: 'expired' }, { limit: 10 }).keys()].sort(), ['limit', 'status']);
  });
});
