// Payment truth on a real node, model-based: the sequences of model.test.ts with Ethereum on a private anvil, whose
// chain the test also reorganises (random depth, with and without a double-spend), rewinds and restarts, while gateway
// processes are SIGKILLed; two invariants more, checked against the node after every step: no payment counts a transfer
// that is not on its canonical chain, and every canonical transfer to a payment's address is counted exactly once.
// MODEL_ANVIL_SECONDS sets its time (its share of the model test's budget in `npm test`: 8 s, since 12 of its 20 went to
// model-tron.test.ts, TRON's pass of the same model); `npm run soak` runs longer.
import { describe, it } from 'node:test';
import { storageName } from '../helpers/gateway.js';
import { runModelOnNode } from '../helpers/payment-model.js';

describe(`payment truth on a node, model-based (${storageName})`, () => {
  it('holds every invariant, the node’s included, through reorgs, rewinds, node restarts and gateway restarts', async () => {
    const minimum = Number(process.env.MODEL_ANVIL_MINIMUM ?? 10);
    await runModelOnNode('ETHEREUM', { seconds: Number(process.env.MODEL_ANVIL_SECONDS ?? 8), minimum, label: `${storageName} with Ethereum on anvil` });
  });
});
