// The watcher on a real node (anvil, mining only when told): how many blocks a second it follows when each carries 100
// transfers to its payments among 10,000 open ones, against a bare client reading the same blocks the same way (the
// floor: what the node and the RPC cost without recording or deriving anything); and how long after a block is mined
// the customer's page hears of its confirmation through the event stream, at the default 1 s poll.
import { createTestClient, encodeFunctionData, http, parseAbi, publicActions, walletActions, type Address, type Hex } from 'viem';
import { loadConfig } from '../../src/sandbox/config.js';
import { startAnvil } from '../../src/sandbox/chains/evm/anvil.js';
import { TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { deployContract } from '../../src/sandbox/chains/evm/contracts/deploy.js';
import { checkoutApi, sandboxApi } from '../../test/helpers/checkout.js';
import { sampleLink } from '../../test/helpers/gateway.js';
import { startTcpProxy } from '../../test/helpers/tcp-proxy.js';
import { fmt, round, summarize, type Table } from '../lib/report.js';
import { inBatches, sandboxMerchant, watchPayments, within } from '../lib/gateway-client.js';
import { forEachStorage, gatewaySuite, withGateway } from '../lib/suite.js';

const OPEN_PAYMENTS = Number(process.env.BENCH_CHAIN_PAYMENTS ?? 10_000);
const TRANSFERS_PER_BLOCK = 100;
const BLOCKS = 30;
const LATENCY_SAMPLES = 30;
const POLL_MS = 1_000;
/** The stream must have the block's confirmation by then, or the sample fails. */
const EVENT_TIMEOUT_MS = 15_000;

const ERC20 = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

export const chainSuite = gatewaySuite({
  id: 'chain',
  title: 'The watcher on an EVM node (anvil)',
  async run({ storages }, notes) {
    const follow: Table = {
      title: `Blocks followed per second: ${BLOCKS} blocks of ${TRANSFERS_PER_BLOCK} token transfers each, ${OPEN_PAYMENTS.toLocaleString('en-US')} open payments`,
      columns: ['storage', 'blocks', 'gateway s', 'blocks/s', 'floor blocks/s', 'ratio to floor'],
      rows: [],
    };
    const latency: Table = {
      title: `Block mined → the customer's SSE event of its confirmation, ${LATENCY_SAMPLES} samples, poll every ${POLL_MS} ms, ${TRANSFERS_PER_BLOCK} transfers a block`,
      columns: ['storage', 'n', 'p50 ms', 'p99 ms', 'max ms', 'target p99 ms', 'p99 / target'],
      rows: [],
    };
    await forEachStorage(storages, notes, async (storage) => {
      const node = await startAnvil({ mining: 'manual', accounts: 2 });
      const proxy = await startTcpProxy(node.rpcUrl);
      try {
        const client = createTestClient({ mode: 'anvil', transport: http(node.rpcUrl), cacheTime: 0 }).extend(publicActions).extend(walletActions);
        const [deployer, customer] = (await client.getAddresses()) as [Address, Address];
        const token = await deployContract(node.rpcUrl, deployer, TestToken, ['Tether USD (bench)', 'USDT', 6], { mine: true });
        const env = { ETHEREUM_RPC_URL: proxy.url, ETHEREUM_USDT_CONTRACT: token, ETHEREUM_POLL_MS: String(POLL_MS) };
        await withGateway(storage, env, async (gateway) => {
          const merchant = sandboxMerchant(gateway.url);
          const started = Date.now();
          const opened = await inBatches(Array.from({ length: OPEN_PAYMENTS }), 16, async () => {
            const link = await merchant.createPaymentLink(sampleLink());
            const { status, body } = await checkoutApi(gateway.url, link.payment_link_ref).open('USDT', 'ETHEREUM');
            if (status !== 201) throw new Error(`open answered ${status}: ${JSON.stringify(body)}`);
            return { ref: link.payment_link_ref, payment: body };
          });
          notes.push(`${storage.name}: ${OPEN_PAYMENTS.toLocaleString('en-US')} payments opened in ${fmt((Date.now() - started) / 1000)} s.`);
          await client.writeContract({ account: customer, chain: null, address: token, abi: TestToken.abi, functionName: 'mint', args: [customer, 10n ** 30n] });
          await client.mine({ blocks: 1 });
          // A hundred transfers at once from one account: each with its own nonce, or the node takes them for replacements.
          let nonce = await client.getTransactionCount({ address: customer, blockTag: 'pending' });
          const pay = (address: string, amount: bigint): Promise<Hex> =>
            client.sendTransaction({
              account: customer,
              chain: null,
              to: token,
              nonce: nonce++,
              data: encodeFunctionData({ abi: TestToken.abi, functionName: 'transfer', args: [address as Address, amount] }),
            });
          await sandboxApi(gateway.url).mine(1, 'ETHEREUM');

          // Throughput: the blocks are made while the gateway cannot see the node, then it catches up.
          proxy.freeze();
          let next = 0;
          const from = Number(await client.getBlockNumber()) + 1;
          for (let b = 0; b < BLOCKS; b++) {
            await Promise.all(Array.from({ length: TRANSFERS_PER_BLOCK }, () => pay(opened[next++ % opened.length]!.payment.address, 1n)));
            await client.mine({ blocks: 1 });
          }
          const tip = Number(await client.getBlockNumber());
          const t0 = performance.now();
          proxy.thaw();
          const followed = async () => (await sandboxApi(gateway.url).chain()).body.tips.ETHEREUM ?? 0;
          while ((await followed()) < tip) await new Promise((resolve) => setTimeout(resolve, 20));
          const gatewaySeconds = (performance.now() - t0) / 1000;
          const floorSeconds = await readLikeTheWatcher(node.rpcUrl, token, from, tip);
          follow.rows.push([storage.name, BLOCKS, round(gatewaySeconds, 2), round(BLOCKS / gatewaySeconds), round(BLOCKS / floorSeconds), round(floorSeconds / gatewaySeconds, 3)]);

          // Latency: a block with the customer's transfer among 99 others; its first confirmation, as the page hears it.
          const times: number[] = [];
          for (let i = 0; i < LATENCY_SAMPLES; i++) {
            const { ref, payment } = opened[OPEN_PAYMENTS - 1 - i]!;
            const watch = watchPayments(gateway.url, ref);
            try {
              const hash = await pay(payment.address, 1n);
              await within(
                watch.until((p) => p.transactions.some((t) => t.tx_hash === hash)),
                EVENT_TIMEOUT_MS,
                'the transfer seen waiting',
              );
              await Promise.all(Array.from({ length: TRANSFERS_PER_BLOCK - 1 }, () => pay(opened[next++ % opened.length]!.payment.address, 1n)));
              const confirmed = watch.until((p) => p.transactions.some((t) => t.tx_hash === hash && t.confirmations === 1));
              // Mined at a random point of the poll's cycle: the waiting transfer was just seen by a poll, and a block
              // mined right after it would always wait for nearly a whole cycle.
              await new Promise((resolve) => setTimeout(resolve, Math.random() * POLL_MS));
              const mined = performance.now();
              await client.mine({ blocks: 1 });
              times.push((await within(confirmed, EVENT_TIMEOUT_MS, 'the confirmation')) - mined);
            } finally {
              watch.close();
            }
          }
          const s = summarize(times);
          const target = POLL_MS + 250;
          latency.rows.push([storage.name, s.n, round(s.p50), round(s.p99), round(s.max), target, round(s.p99 / target, 2)]);
        });
      } finally {
        await proxy.close();
        await node.stop();
      }
    });
    notes.push(
      'Floor: a bare viem client reading the same blocks as the watcher does (each block with its transactions, its token Transfer events by block hash, its calls by trace_block), 25 blocks at a time, recording nothing.',
      `The gateway runs with its timers (a ${POLL_MS} ms poll); "ratio to floor" is floor time / gateway time (1 = as fast as reading alone).`,
      `Configuration: ${JSON.stringify({ confirmations: loadConfig({}).networks.find((n) => n.id === 'ETHEREUM')!.confirmations })}.`,
    );
    return [follow, latency];
  },
});

/** The seconds a bare client takes to read blocks `from`…`to` as the watcher reads them, 25 at a time. */
async function readLikeTheWatcher(rpcUrl: string, token: Address, from: number, to: number): Promise<number> {
  const client = createTestClient({ mode: 'anvil', transport: http(rpcUrl, { batch: { wait: 0 } }), cacheTime: 0 }).extend(publicActions);
  const t0 = performance.now();
  for (let start = from; start <= to; start += 25) {
    const heights = Array.from({ length: Math.min(25, to - start + 1) }, (_, i) => BigInt(start + i));
    const blocks = await Promise.all(heights.map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true })));
    await Promise.all(
      blocks.map((block) =>
        Promise.all([
          client.getLogs({ address: token, event: ERC20[0], blockHash: block.hash! }),
          client.request({ method: 'trace_block', params: [`0x${block.number!.toString(16)}`] } as never),
        ]),
      ),
    );
  }
  return (performance.now() - t0) / 1000;
}
