// Payment truth on a real node, model-based: the sequences of model.test.ts with Ethereum on a private anvil, whose
// chain the test also reorganises (random depth, with and without a double-spend), rewinds and restarts, while gateway
// processes are SIGKILLed; two invariants more, checked against the node after every step: no payment counts a transfer
// that is not on its canonical chain, and every canonical transfer to a payment's address is counted exactly once.
// MODEL_ANVIL_SECONDS sets its time (its share of the model test's budget in `npm test`: 8 s, since 12 of its 20 went to
// model-tron.test.ts, TRON's pass of the same model); `npm run soak` runs longer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storageName } from '../helpers/gateway.js';
import { ModelNode } from '../helpers/model-node.js';
import { describeStats, GatewaySystem, newStats, runModel, SCENARIOS } from '../helpers/payment-model.js';

describe(`payment truth on a node, model-based (${storageName})`, () => {
  it('holds every invariant, the node’s included, through reorgs, rewinds, node restarts and gateway restarts', async () => {
    const node = await ModelNode.start();
    const postgres = process.env.TEST_DATABASE_URL || undefined;
    const system = await GatewaySystem.start(postgres, { env: node.env });
    const stats = newStats();
    try {
      const minimum = Number(process.env.MODEL_ANVIL_MINIMUM ?? 10);
      await runModel(system, { seconds: Number(process.env.MODEL_ANVIL_SECONDS ?? 8), minimum, stats, node });
    } finally {
      console.log(describeStats(stats, `${storageName} with Ethereum on anvil`));
      await system.close();
      await node.stop();
    }
    assert.ok(stats.restarts * 5 >= stats.sequences, 'a gateway restart in at least a fifth of the sequences');
    for (const seen of node.events) assert.ok([...stats.seen.keys()].some((key) => key.startsWith(seen)), `at least one ${seen}`);
    for (const { name } of SCENARIOS.slice(0, Math.ceil(stats.sequences / 2))) assert.ok(stats.seen.has(`scenario: ${name}`), `the scenario "${name}" reached its point`);
  });
});
