// The watcher follows the chain the way a real gateway's does: after every transfer and every block it
// reconciles the payments concerned, and on a timer it mines due blocks and expires quotes and links.
import { NETWORKS, type Network } from '../../contract/index.js';
import type { PaymentSettings } from '../config.js';
import type { Chain } from './chain.js';
import type { Payments } from './payments.js';

export class Watcher {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();

  constructor(
    private readonly chain: Chain,
    private readonly payments: Payments,
    private readonly settings: PaymentSettings,
  ) {}

  /** Ticks every second: blocks on their intervals, expiries on time. */
  start(intervalMs = 1000): void {
    this.#timer = setInterval(() => void this.tick().catch((error: unknown) => console.error('watcher tick failed', error)), intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  /** One round: mine what is due, follow the new blocks, expire what ran out. Rounds never overlap. */
  tick(): Promise<void> {
    this.#running = this.#running.then(async () => {
      const intervals = Object.fromEntries(NETWORKS.map((n) => [n, this.settings.networks[n].blockIntervalMs])) as Record<Network, number>;
      for (const network of await this.chain.mineDue(intervals)) await this.payments.reconcileNetwork(network);
      await this.payments.expireDue();
    });
    return this.#running;
  }

  async afterTransfer(to: string): Promise<void> {
    await this.payments.reconcileAddress(to);
  }

  async afterBlocks(network: Network): Promise<void> {
    await this.payments.reconcileNetwork(network);
  }
}
