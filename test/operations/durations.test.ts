// The gateway's duration histograms (src/sandbox/services/operations/durations.ts) against prom-client's own Histogram as
// the oracle: over random observations of random label sets, both registries expose the same series in Prometheus's
// text format (label order aside), bounds, +Inf, sums and counts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { Durations } from '../../src/sandbox/services/operations/durations.js';

const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const NAME = 'test_duration_seconds';

/** The exposition's lines, each with its labels sorted by name, so that two writers' orders compare. */
const lines = (text: string): string[] =>
  text
    .trim()
    .split('\n')
    .map((line) => line.replace(/\{([^}]*)\}/, (_, labels: string) => `{${labels.split(',').sort().join(',')}}`))
    .sort();

const seconds = fc.oneof(fc.constantFrom(...BOUNDS, 0, 10.5, 300), fc.double({ min: 0, max: 20, noNaN: true }));
const observation = fc.record({ method: fc.constantFrom('GET', 'POST'), route: fc.constantFrom('/api/checkout/:ref', '/metrics'), status: fc.constantFrom(200, 404, 503), seconds });

describe('duration histograms', () => {
  it('expose what prom-client\'s Histogram exposes for the same observations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 60 }), async (observations) => {
        const ours = new Registry();
        const theirs = new Registry();
        const durations = new Durations(NAME, 'help', BOUNDS, ours);
        const histogram = new Histogram({ name: NAME, help: 'help', labelNames: ['method', 'route', 'status'], buckets: BOUNDS, registers: [theirs] });
        for (const { method, route, status, seconds } of observations) {
          durations.observe(`${method} ${status} ${route}`, () => ({ method, route, status }), seconds);
          histogram.observe({ method, route, status }, seconds);
        }
        assert.deepEqual(lines(await ours.metrics()), lines(await theirs.metrics()));
      }),
    );
  });

  it('start again empty on reset, as the registry resets its metrics', async () => {
    const registry = new Registry();
    const durations = new Durations(NAME, 'help', BOUNDS, registry);
    durations.observe('statement', () => ({ kind: 'statement' }), 0.002);
    assert.match(await registry.metrics(), /^test_duration_seconds_count\{kind="statement"\} 1$/m);
    registry.resetMetrics();
    assert.doesNotMatch(await registry.metrics(), /kind="statement"/);
  });
});
