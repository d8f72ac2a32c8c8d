// Payment truth on TRON's node, model-based: the sequences of model-anvil.test.ts with USDT on TRON on the stand-in
// (test/helpers/tron-node.ts: anvil on Nile's chain id behind a layer answering as java-tron does), Ethereum and
// Bitcoin simulated beside it. The test pays and mines TRON itself (the gateway's wallet sends on no public network's
// node), reorganises the stand-in's chain above its solidified block (random depth, with and without a double-spend),
// has its provider throttle (HTTP 429 until the watcher met a few refusals, blocks coming meanwhile), and SIGKILLs
// gateway processes; after every step, the node's invariants as on anvil: no payment counts a transfer that is not on
// the canonical chain, and every canonical transfer to a payment's address is counted exactly once. TRON money needs
// the reference's 3 confirmations here, not TRON's 19 (test/helpers/model-node.ts, TRON_MODEL_CONFIRMATIONS, says why).
// MODEL_TRON_SECONDS sets its time: its 12 s were taken from MODEL_ANVIL_SECONDS' default (20 s, now 8), so that the
// model's share of `npm test` stays what it was; `npm run soak` runs it longer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storageName } from '../helpers/gateway.js';
import { runModelOnNode } from '../helpers/payment-model.js';

describe(`payment truth on TRON's node, model-based (${storageName})`, () => {
  it('holds every invariant, the node’s included, through reorgs above the solidified block, throttling and gateway restarts', async () => {
    const minimum = Number(process.env.MODEL_TRON_MINIMUM ?? 10);
    const stats = await runModelOnNode('TRON', { seconds: Number(process.env.MODEL_TRON_SECONDS ?? 12), minimum, label: `${storageName} with USDT on TRON on the stand-in` });
    assert.ok([...stats.seen.keys()].some((key) => key.startsWith('pay') && key.endsWith("on TRON's node")), 'money sent on TRON');
  });
});
