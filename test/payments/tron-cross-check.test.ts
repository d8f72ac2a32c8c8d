// The cross-check of TRON on a node (services/chains/cross-check.ts; DESIGN.md 9.1), on the stand-in
// (test/helpers/tron-node.ts): a provider that leaves a transfer's log out of its answer once, as a flaky backend does,
// has the payment found anyway, from its block read again and counted once; an address that holds as much as the
// gateway recorded, or less (its money swept away), has nothing read again; a provider that throttles makes the
// rounds skip, and the watcher finds what was paid meanwhile as it does without them; a transfer no log shows is never
// counted, only told.
// Store: any. Its queries (storage/chain-facts.ts) are plain SQL that both stores run alike; PGlite pass only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Address, Hex } from 'viem';
import { parseDecimal } from '../../src/codecs/amounts.js';
import { tronAddressToHex } from '../../src/codecs/addresses.js';
import type { Payment } from '../../src/contract/index.js';
import { Trc20TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { readCursor } from '../../src/sandbox/storage/chain-facts.js';
import { checkoutApi } from '../helpers/checkout.js';
import { RunningClock, sampleLink } from '../helpers/gateway.js';

import { useGatewayOnTron } from '../helpers/tron-node.js';

import { eventually } from '../helpers/until.js';

describe('USDT on TRON on a node, cross-checked against the balances', () => {
  const { node, gw } = useGatewayOnTron({ clock: new RunningClock(), watch: true, env: { TRON_CROSSCHECK_MS: '200' } });

  async function open() {
    const link = await gw.client.createPaymentLink(sampleLink());
    const checkout = checkoutApi(gw.url, link.payment_link_ref);
    const { status, body } = await checkout.open('USDT', 'TRON');
    assert.equal(status, 201, JSON.stringify(body));
    const read = async () => (await checkout.payment(body.payment_id)).body;
    return { payment: body, read };
  }
  const pay = (payment: Payment): Promise<Hex> =>
    node.client.writeContract({
      account: node.customer,
      chain: null,
      address: node.token,
      abi: Trc20TestToken.abi,
      functionName: 'transfer',
      args: [tronAddressToHex(payment.address) as Address, parseDecimal(payment.amount_crypto, 6)],
    });
  /** The balanceOf calls made for an address since call `from` of the stand-in's log. */
  const balanceReads = (address: string, from: number) =>
    node.calls.slice(from).filter((c) => c.method === 'eth_call' && String((c.params?.[0] as { data?: string } | undefined)?.data).endsWith(tronAddressToHex(address).slice(2).toLowerCase())).length;
  const disagreements = async () => {
    const text = await (await fetch(`${gw.url}/metrics`)).text();
    return [...text.matchAll(/^pay_checkout_chain_cross_check_disagreements_total\{network="TRON",outcome="(\w+)"\} (\d+)$/gm)].map(([, outcome, n]) => `${outcome} ${n}`);
  };

  it('reads nothing again where an address holds as much as was recorded, or less (its money swept away)', async () => {
    const [kept, swept] = [await open(), await open()];
    await pay(kept.payment);
    await pay(swept.payment);
    await node.client.mine({ blocks: 1 });
    for (const { read } of [kept, swept]) await eventually('the transfer seen', read, (p) => p.transactions.length === 1);
    // The swept address sends everything on, as a merchant's sweep does.
    const sweeper = tronAddressToHex(swept.payment.address) as Address;
    await node.client.impersonateAccount({ address: sweeper });
    await node.client.setBalance({ address: sweeper, value: 10n ** 18n });
    await node.client.writeContract({ account: sweeper, chain: null, address: node.token, abi: Trc20TestToken.abi, functionName: 'transfer', args: [node.other, parseDecimal(swept.payment.amount_crypto, 6)] });
    await node.client.mine({ blocks: 1 });
    const followed = await node.client.getBlockNumber();
    await eventually('the sweep’s block followed', async () => (await readCursor(gw.gateway.db, 'TRON'))?.height ?? 0, (height) => BigInt(height) >= followed);
    const from = node.calls.length;
    // Two rounds after the sweep: the first may have read its balances before it.
    await eventually('two cross-check rounds of each address', async () => [balanceReads(kept.payment.address, from), balanceReads(swept.payment.address, from)], (reads) => reads.every((n) => n >= 2));
    const readAgain = node.calls.slice(from).filter((c) => c.method === 'eth_getBlockByNumber' && c.params?.[0] !== 'latest' && BigInt(String(c.params?.[0])) <= followed);
    assert.deepEqual(readAgain.map((c) => c.params?.[0]), [], 'no followed block read again');
    assert.deepEqual(await disagreements(), []);
    for (const { payment, read } of [kept, swept]) assert.deepEqual([(await read()).received_crypto, (await read()).transactions.length], [payment.amount_crypto, 1]);
  });

  it('finds a transfer whose log the provider left out, from its block read again, and counts it once', async () => {
    const { payment, read } = await open();
    const from = node.calls.length;
    const hash = await pay(payment);
    node.dropLogs(hash);
    await node.client.mine({ blocks: 1 });
    await eventually('the log left out of an answer', async () => [...node.withheld], (withheld) => withheld.includes(hash.toLowerCase()));
    const seen = await eventually('the transfer found by the cross-check', read, (p) => p.transactions.length > 0);
    assert.deepEqual([seen.status, seen.received_crypto, seen.transactions.map((t) => t.tx_hash)], ['confirming', payment.amount_crypto, [hash.slice(2)]]);
    assert.deepEqual(await disagreements(), ['recovered 1']);
    // Its block's logs asked twice (the follower's answer, the one read again), and no block from before it opened.
    const { blockHash } = await node.client.getTransactionReceipt({ hash });
    const logsOf = node.calls.slice(from).filter((c) => c.method === 'eth_getLogs').map((c) => (c.params?.[0] as { blockHash?: string }).blockHash);
    assert.deepEqual(logsOf, [blockHash, blockHash]);
    await node.client.mine({ blocks: 18 });
    const paid = await eventually('the payment paid', read, (p) => p.status === 'paid');
    assert.deepEqual([paid.received_crypto, paid.transactions.map((t) => [t.tx_hash, t.confirmations])], [payment.amount_crypto, [[hash.slice(2), 19]]], 'counted once');
    assert.deepEqual(await disagreements(), ['recovered 1'], 'one disagreement, told once');
  });

  it('skips its rounds while the provider throttles, and takes a payment made meanwhile for no disagreement', async () => {
    const { payment, read } = await open();
    node.throttle(429);
    const from = node.calls.length;
    await pay(payment);
    await node.client.mine({ blocks: 1 });
    await eventually('calls refused', async () => node.calls.slice(from).filter((c) => c.throttled).length, (n) => n >= 3);
    node.throttle(undefined);
    const answered = node.calls.length;
    await eventually('a cross-check round once the provider answers', async () => balanceReads(payment.address, answered), (n) => n >= 2);
    const seen = await read();
    assert.deepEqual([seen.status, seen.received_crypto, seen.transactions.length], ['confirming', payment.amount_crypto, 1]);
    assert.deepEqual(await disagreements(), ['recovered 1'], 'the one before; nothing read again');
    await node.client.mine({ blocks: 18 });
    const paid = await eventually('the payment paid', read, (p) => p.status === 'paid');
    assert.deepEqual([paid.received_crypto, paid.transactions.length], [payment.amount_crypto, 1]);
  });

  it('never counts what no log shows: a provider that always leaves it out has the disagreement logged and counted once, and nothing recorded', async () => {
    const { payment, read } = await open();
    const from = node.calls.length;
    const hash = await pay(payment);
    node.dropLogs(hash, Infinity);
    await node.client.mine({ blocks: 1 });
    await eventually('the disagreement counted', disagreements, (counted) => counted.includes('unresolved 1'));
    const reads = balanceReads(payment.address, from);
    await eventually('two more cross-check rounds', async () => balanceReads(payment.address, from), (n) => n >= reads + 2);
    assert.deepEqual((await disagreements()).sort(), ['recovered 1', 'unresolved 1'], 'counted once');
    const { blockHash } = await node.client.getTransactionReceipt({ hash });
    const logsOf = node.calls.slice(from).filter((c) => c.method === 'eth_getLogs').map((c) => (c.params?.[0] as { blockHash?: string }).blockHash);
    assert.deepEqual(logsOf, [blockHash, blockHash], 'its block read again once');
    const seen = await read();
    assert.deepEqual([seen.status, seen.received_crypto, seen.transactions], ['awaiting_payment', '0', []]);
  });
});
