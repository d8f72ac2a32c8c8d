// Idempotency-Keys against a model (docs/api.md, "Idempotency"): random sequences of keyed and unkeyed requests, the
// same key with the same or another request, two identical requests at once, and clock jumps past the key's life, on
// webhook endpoints and refunds (whose keys share one namespace, the merchant's). After every step: one effect per
// live key and per unkeyed request, never more; an answer lists the order's refunds through its own, and a replay is
// the first answer read again (the same refunds, as they are now); another request under a live key is a 422 that
// changes nothing.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Hono } from 'hono';
import type { Problem, RefundList, WebhookEndpoint } from '../../src/contract/index.js';
import { loadConfig } from '../../src/sandbox/config.js';
import { useTestGateway } from '../helpers/fixture.js';
import { storageName } from '../helpers/gateway.js';

import { accessToken, inProcess, JSON_TYPE, paidOrder, send, type Answer } from '../helpers/merchant-api.js';

const TTL_SECONDS = 60;
const PAID = 360_000;
const KEYS = ['k0', 'k1', 'k2'];

type Target = 'endpoint' | 'refund';
type Step = { kind: 'send'; target: Target; key: number | null; body: 0 | 1; copies: 1 | 2 } | { kind: 'tick'; seconds: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('send' as const), target: fc.constantFrom<Target>('endpoint', 'refund'), key: fc.option(fc.nat(KEYS.length - 1), { freq: 4 }), body: fc.constantFrom<0 | 1>(0, 1), copies: fc.constantFrom<1 | 2>(1, 2) }) },
  // Across the life's end, either side of it.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), seconds: fc.constantFrom(1, 30, TTL_SECONDS - 1, TTL_SECONDS, TTL_SECONDS + 1) }) },
);

/** What a key answered first: to which request, when, and the effect it made (an endpoint, or refunds by id). */
interface Kept {
  target: Target;
  body: 0 | 1;
  at: number;
  endpoint?: WebhookEndpoint;
  refundIds?: string[];
}

describe(`Idempotency-Keys against a model (${storageName})`, () => {
  const gw = useTestGateway({ config: { idempotencyKeyTtlSeconds: TTL_SECONDS, limits: { ...loadConfig({}).limits, webhookEndpointsPerMerchant: 1_000, webhookEndpointAddsPerMerchantPerMinute: 1_000_000 } } });
  let app: Hono;
  before(() => {
    app = inProcess(gw);
  });

  it('makes one effect per live key, replays what the first answer made, and refuses another request under the key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        await gw.reset();
        const { orderId } = await paidOrder(gw);
        const token = await accessToken(app, gw.credentials);
        const kept = new Map<string, Kept>();
        let endpoints = 0;
        let refunds: string[] = [];

        const request = (target: Target, body: 0 | 1, key: string | undefined) =>
          send<(WebhookEndpoint & RefundList) & Pick<Problem, 'errors'>>(app, 'POST', target === 'endpoint' ? '/api/webhooks/endpoints' : `/api/refund/createRefund/${orderId}`, {
            headers: { Authorization: `Bearer ${token}`, ...JSON_TYPE, ...(key && { 'Idempotency-Key': key }) },
            body: JSON.stringify(
              target === 'endpoint'
                ? { url: `http://127.0.0.1:9/hook-${body}` }
                : { amount: 1 + body, channel: 'PROVIDER', description: 'model', refund_type: 'partial', refund_reason: 'model' },
            ),
          });
        /** The order's refund list through these refunds, as it is now: what a refund request that made them answers. */
        const listThrough = async (made: string[]): Promise<RefundList> => {
          const { body } = await send<RefundList>(app, 'GET', `/api/refund/getDataByTransaction/${orderId}`, { headers: { Authorization: `Bearer ${token}` } });
          const details = body.refundDetails.slice(0, Math.max(...made.map((id) => body.refundDetails.findIndex((r) => r.refund_id === id))) + 1);
          return { amountToRefund: PAID - details.reduce((sum, r) => sum + r.amount, 0), refundDetails: details };
        };
        /** What a fresh answer made: the endpoint, or the refunds it added to the list. */
        const effect = (target: Target, answer: Answer<WebhookEndpoint & RefundList>): Pick<Kept, 'endpoint' | 'refundIds'> =>
          target === 'endpoint' ? { endpoint: answer.body } : { refundIds: answer.body.refundDetails.map((r) => r.refund_id).filter((id) => !refunds.includes(id)) };

        for (const s of steps) {
          if (s.kind === 'tick') {
            gw.clock.advance(s.seconds * 1000);
            continue;
          }
          const key = s.key === null ? undefined : KEYS[s.key]!;
          const now = gw.clock.now().getTime();
          const live = key === undefined ? undefined : kept.get(key);
          const earlier = live && now - live.at < TTL_SECONDS * 1000 ? live : undefined;
          const answers = await Promise.all(Array.from({ length: s.copies }, () => request(s.target, s.body, key)));
          const label = JSON.stringify({ s, earlier: earlier && { target: earlier.target, body: earlier.body } });

          if (earlier && (earlier.target !== s.target || earlier.body !== s.body)) {
            for (const a of answers) assert.deepEqual([a.status, a.body.errors?.[0]?.path], [422, 'Idempotency-Key'], label);
          } else {
            for (const a of answers) assert.equal(a.status, 201, `${label} ${JSON.stringify(a.body)}`);
            const fresh = answers.filter((a) => a.headers.get('idempotent-replayed') !== 'true');
            // Without a key, each copy is its own request; with one, one copy at most is new (none when the key is live).
            assert.equal(fresh.length, key === undefined ? s.copies : earlier ? 0 : 1, label);
            const firstMade = fresh[0] && effect(s.target, fresh[0]);
            if (s.target === 'endpoint') endpoints += fresh.length;
            else {
              for (const a of fresh) assert.ok(!refunds.includes(a.body.refundDetails.at(-1)!.refund_id), `${label}: an answer ends with its own refund`);
              const made = new Set(fresh.flatMap((a) => effect(s.target, a).refundIds!));
              assert.equal(made.size, fresh.length, label);
              refunds = [...refunds, ...made];
            }
            if (key !== undefined && firstMade) kept.set(key, { target: s.target, body: s.body, at: now, ...firstMade });
            const first = kept.get(key ?? '');
            for (const a of answers.filter((x) => !fresh.includes(x))) {
              if (s.target === 'endpoint') assert.deepEqual(a.body, first!.endpoint, label);
              else {
                assert.deepEqual(a.body, await listThrough(first!.refundIds!), `${label}: a replay lists the refunds through the first answer's`);
              }
            }
          }
          // The invariant, after every step: exactly the effects the model counted.
          const [row] = await gw.gateway.db.query<{ endpoints: number; refunds: number }>(
            'SELECT (SELECT count(*) FROM webhook_endpoints)::int AS endpoints, (SELECT count(*) FROM refunds)::int AS refunds',
          );
          assert.deepEqual(row, { endpoints, refunds: refunds.length }, label);
        }
      }),
      { numRuns: 12 },
    );
  });
});
