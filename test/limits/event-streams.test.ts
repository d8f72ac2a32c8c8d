// Event streams are bounded per client address, per link and per process (docs/security.md, "Limits"): one client
// cannot hold every file descriptor, and a stream closed gives its place back.
import assert from 'node:assert/strict';
import { get, type IncomingMessage } from 'node:http';
import { after, describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../src/sandbox/config.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

describe(`event streams are limited (${storageName})`, () => {
  const open: IncomingMessage[] = [];
  // Registered first, so it runs before the gateway closes.
  after(() => {
    for (const response of open) response.destroy();
  });
  const gw = useTestGateway({ config: { limits: { ...DEFAULT_LIMITS, streamsPerClient: 5, streamsPerLink: 3, streams: 1_000 } } });

  /** Opens a stream and answers its status; a 200 is kept open, anything else read whole. */
  const stream = (ref: string) =>
    new Promise<{ status: number; type: string | undefined; retryAfter: string | undefined }>((resolve, reject) => {
      get(`${gw.url}/api/checkout/${ref}/events`, (response) => {
        if (response.statusCode === 200) open.push(response);
        else response.resume();
        resolve({ status: response.statusCode!, type: response.headers['content-type'], retryAfter: response.headers['retry-after'] });
      }).on('error', reject);
    });

  it('answers 429 past the streams of one link and of one address, and takes a stream again once one closes', async () => {
    const [a, b] = await Promise.all([gw.client.createPaymentLink(sampleLink()), gw.client.createPaymentLink(sampleLink())]);
    const onA: number[] = [];
    for (let i = 0; i < 4; i++) onA.push((await stream(a.payment_link_ref)).status);
    assert.deepEqual(onA, [200, 200, 200, 429], '3 a link');
    const onB: number[] = [];
    for (let i = 0; i < 3; i++) onB.push((await stream(b.payment_link_ref)).status);
    assert.deepEqual(onB, [200, 200, 429], '5 an address');
    const refused = await stream(b.payment_link_ref);
    assert.equal(refused.type, 'application/problem+json');
    assert.ok(Number(refused.retryAfter) > 0);
    open.shift()!.destroy();
    for (let i = 0; i < 50 && gw.gateway.eventStreams.size > 4; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal((await stream(b.payment_link_ref)).status, 200);
  });
});
