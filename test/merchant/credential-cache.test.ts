// The cache of credentials every merchant API call and signed link goes through (services/merchant/credential-cache.ts):
// a change of credentials must never be undone by a read that was under way when it happened.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CredentialCache } from '../../src/sandbox/services/merchant/credential-cache.js';

/** A read that answers `value` when told to, counting how often it was asked. */
function pendingRead<V>(value: V) {
  let answer!: () => void;
  const asked = { count: 0 };
  const gate = new Promise<void>((resolve) => (answer = resolve));
  return { asked, answer, read: async () => (asked.count++, await gate, value) };
}

describe('a cache of credentials', () => {
  it('keeps a read, and reads again once credentials changed', async () => {
    const cache = new CredentialCache<string>(60_000);
    let reads = 0;
    const read = async () => `secret ${++reads}`;
    assert.equal(await cache.get('m', read), 'secret 1');
    assert.equal(await cache.get('m', read), 'secret 1');
    cache.clear();
    assert.equal(await cache.get('m', read), 'secret 2');
  });

  it('answers a read begun before a change, but does not keep it', async () => {
    const cache = new CredentialCache<string>(60_000);
    const old = pendingRead('old secret');
    const reading = cache.get('m', old.read);
    cache.clear(); // a roll commits while the read is on its way
    old.answer();
    assert.equal(await reading, 'old secret');
    assert.equal(await cache.get('m', async () => 'new secret'), 'new secret', 'the old read was not kept');
  });

  it('keeps nothing for a miss, drops what is no longer good, and keeps at most `max` entries, oldest out first', async () => {
    const cache = new CredentialCache<number>(60_000, 2);
    let reads = 0;
    const read = (value: number | undefined) => async () => (reads++, value);
    assert.equal(await cache.get('none', read(undefined)), undefined);
    assert.equal(await cache.get('none', read(undefined)), undefined);
    assert.equal(reads, 2, 'a miss is read every time');
    await cache.get('a', read(1));
    assert.equal(await cache.get('a', read(2), (v) => v > 1), 2, 'a kept value that is no longer good is read again');
    await cache.get('b', read(3));
    await cache.get('c', read(4));
    reads = 0;
    assert.equal(await cache.get('c', read(0)), 4);
    assert.equal(await cache.get('b', read(0)), 3);
    assert.equal(reads, 0);
    assert.equal(await cache.get('a', read(5)), 5, 'the oldest went when the third came');
  });
});
