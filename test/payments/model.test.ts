// Payment truth, model-based: random sequences of payments in any asset, switches, exact/partial/over/short/old-address/late
// transfers, bursts of up to 500 blocks, quotes and links run out, accepted held funds, refunds (claimed by the
// customer with their network's address or another's, sent to the payer, cancelled) and their payouts, and SIGKILLed
// gateway processes, with every invariant checked after every step (test/helpers/payment-model.ts), every status and
// VND figure against the reference model written from the docs (test/helpers/payment-reference.ts). Whatever is drawn,
// a run of ten sequences meets each fixed scenario of the helper's SCENARIOS: a short pay confirmed, credit carried to
// the next quote, money at a superseded address.
// MODEL_SECONDS sets the time given to it (20 s a store in `npm test`, beside the anvil pass's 20 s of
// model-anvil.test.ts) and MODEL_MINIMUM the fewest sequences (`npm run soak`: 1,000 per store).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeStats, GatewaySystem, newStats, runModel, SCENARIOS } from '../helpers/payment-model.js';
import { storageName } from '../helpers/gateway.js';

describe(`payment truth, model-based (${storageName})`, () => {
  it('holds every invariant after every step of random sequences, through gateway restarts', async () => {
    const postgres = process.env.TEST_DATABASE_URL || undefined;
    const system = await GatewaySystem.start(postgres);
    const stats = newStats();
    try {
      const minimum = Number(process.env.MODEL_MINIMUM ?? 10);
      await runModel(system, { seconds: Number(process.env.MODEL_SECONDS ?? 20), minimum, stats });
    } finally {
      console.log(describeStats(stats, storageName));
      await system.close();
    }
    assert.ok(stats.restarts * 5 >= stats.sequences, 'a restart in at least a fifth of the sequences');
    // Every other sequence meets a fixed scenario in turn: a run of ten meets each.
    for (const { name } of SCENARIOS.slice(0, Math.ceil(stats.sequences / 2))) assert.ok(stats.seen.has(`scenario: ${name}`), `the scenario "${name}" reached its point`);
  });
});
