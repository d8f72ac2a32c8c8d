// An IPv6 address that embeds an IPv4 one is judged as that IPv4 address: `[::127.0.0.1]` is loopback, and
// `[::10.0.0.1]` private, so neither is a webhook target; forms with ranges of their own are never public either.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reachOf } from '../../src/sandbox/services/webhooks/targets.js';

describe('addresses that embed IPv4', () => {
  it('judges IPv4-compatible (::/96), mapped, NAT64, 6to4 and Teredo forms by what they embed, or as internal', () => {
    assert.equal(reachOf('::127.0.0.1'), 'loopback');
    assert.equal(reachOf('::7f00:1'), 'loopback');
    assert.equal(reachOf('::10.0.0.1'), 'internal');
    assert.equal(reachOf('::169.254.169.254'), 'internal');
    assert.equal(reachOf('::ffff:192.168.1.1'), 'internal');
    assert.equal(reachOf('64:ff9b::a00:1'), 'internal');
    assert.equal(reachOf('2002:a00:1::'), 'internal');
    assert.equal(reachOf('2001:0:a00:1::'), 'internal');
    assert.equal(reachOf('::8.8.8.8'), 'public');
    assert.equal(reachOf('2606:4700::1111'), 'public');
  });
});
