// Sandbox controls: blocks now, and time running out now for a quote or a link, so testers reach every status
// without waiting, and tests never sleep; and the chains as the gateway follows them.
import type { ChainNetwork, ChainState, Network, Payment } from '../../../contract/index.js';
import type { Chains } from '../../chains/chains.js';
import { assetFields, type NetworkConfig, type Networks } from '../../chains/networks.js';
import type { Clock } from '../../clock.js';
import { invalid, notFound } from '../../errors.js';
import { readCursors } from '../../storage/chain-facts.js';
import type { Database } from '../../storage/database.js';
import { endLink, endQuote, findPaymentLink } from '../../storage/payments.js';
import type { PaymentView } from '../payments/payment-view.js';
import type { Reconciler } from '../payments/reconciler.js';
import type { Watcher } from '../chains/watcher.js';

export class SandboxControls {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly networks: Networks,
    private readonly chains: Chains,
    private readonly reconciler: Reconciler,
    private readonly view: PaymentView,
    private readonly watcher: Watcher,
  ) {}

  /**
   * Mines `blocks` blocks now, on one network or on every one the sandbox mines (simulated, and development nodes),
   * and follows them; the new tips.
   */
  async mine(blocks: number, network?: Network): Promise<Record<Network, number>> {
    if (network !== undefined && !this.networks.get(network)) {
      throw invalid(`${network} is not a network of this gateway.`, [{ path: 'network', message: `must be one of ${this.networks.ids.join(', ')}` }]);
    }
    const targets = network ? [this.networks.of(network)] : this.networks.all.filter(mineable);
    const tips: Record<Network, number> = {};
    for (const target of targets) {
      if (!mineable(target)) {
        throw invalid(`${target.id} is a public network's node: its blocks come on their own.`, [{ path: 'network', message: 'must be a network the sandbox mines' }]);
      }
      tips[target.id] = await this.chains.wallet(target.id)!.mine(blocks);
      // A simulated chain told the watcher already; a node's blocks are followed now, not at the next poll.
      if (target.source.kind === 'node') await this.watcher.follow(target.id);
    }
    return tips;
  }

  /** GET /sandbox/chain: every network as the gateway follows it. */
  async chainState(): Promise<ChainState> {
    const cursors = new Map((await readCursors(this.db)).map((c) => [c.network, c]));
    const now = this.clock.now().getTime();
    const networks = this.networks.all.map((network): ChainNetwork => {
      const cursor = cursors.get(network.id);
      const node = network.source.kind === 'node' ? network.source : undefined;
      const fresh = cursor?.synced_at && cursor.stale_after_ms !== null && now - cursor.synced_at.getTime() <= cursor.stale_after_ms;
      return {
        network: network.id,
        name: network.name,
        family: network.family,
        source: network.source.kind,
        rpc_url: node ? new URL(node.rpcUrl).origin : null,
        chain_id: network.chain_id ?? null,
        tip: cursor?.height ?? 0,
        tip_hash: cursor?.hash ?? null,
        available: !node || Boolean(fresh),
        synced_at: cursor?.synced_at?.toISOString() ?? null,
        confirmations: network.confirmations,
        explorer_url: network.explorer_url ?? null,
        explorer_tx_url: network.explorer_tx_url ?? null,
        assets: this.networks.assets.filter((a) => a.network === network.id).map(assetFields),
      };
    });
    return { tips: Object.fromEntries(networks.map((n) => [n.network, n.tip])), networks };
  }

  /**
   * Ends a payment's quote now. The payment is named by its id, or by its address for the test wallet, which knows
   * only the QR.
   */
  async expireQuote(target: { payment_id: string } | { address: string }): Promise<Payment> {
    return this.db.transaction(async (tx) => {
      const found = await findPaymentLink(tx, target);
      if (!found) throw notFound('payment_id' in target ? `There is no payment ${target.payment_id}.` : 'No payment pays into this address.');
      await this.reconciler.reconcile(tx, found.payment_link_ref);
      await endQuote(tx, found.payment_id, this.clock.now());
      const snapshot = await this.reconciler.reconcile(tx, found.payment_link_ref);
      const index = snapshot.payments.findIndex((p) => p.payment_id === found.payment_id);
      const row = snapshot.payments[index]!;
      return this.view.render(tx, snapshot.link, row, snapshot.states[index]!, snapshot.transfers.get(row.payment_id) ?? []);
    });
  }

  /** Ends a link now: its open quote closes with it. */
  async expireLink(ref: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.reconciler.reconcile(tx, ref);
      await endLink(tx, ref, this.clock.now());
      await this.reconciler.reconcile(tx, ref);
    });
  }
}

/** The sandbox mines simulated networks and development nodes, never a public network's node. */
const mineable = (network: NetworkConfig) => network.source.kind === 'simulated' || network.source.dev;
