// The chain port of every configured network: the simulator's for simulated networks, a JSON-RPC node's for the
// others. The block timer here mines the simulated networks only, never a node the gateway was given.
import type { Network } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { log } from '../logging.js';
import type { Database } from '../storage/database.js';
import { GATEWAY_FAMILIES } from './families.js';
import type { NetworkConfig, NetworkSpec, Networks } from './networks.js';
import type { ChainPort, ChainWallet, SigningPayoutPort } from './port.js';
import { SimulatedChain } from './simulated/simulated-chain.js';

/** How often the simulated networks are checked for a block due. */
const MINING_TICK_MS = 1_000;

export class Chains {
  readonly #ports = new Map<Network, ChainPort & Partial<ChainWallet>>();
  #timer: NodeJS.Timeout | undefined;

  private constructor(readonly networks: Networks) {}

  static async open(db: Database, clock: Clock, networks: Networks): Promise<Chains> {
    const chains = new Chains(networks);
    for (const network of networks.all) {
      if (network.source.kind === 'simulated') chains.#ports.set(network.id, new SimulatedChain(db, clock, network));
      else {
        const open = GATEWAY_FAMILIES[network.family].nodeChain;
        if (!open) throw new Error(`${network.id}: a ${network.family} network cannot be watched on a node`);
        chains.#ports.set(network.id, await (await open())(network));
      }
    }
    return chains;
  }

  get ports(): ChainPort[] {
    return [...this.#ports.values()];
  }

  port(network: Network): ChainPort {
    const port = this.#ports.get(network);
    if (!port) throw new Error(`network ${network} is not configured`);
    return port;
  }

  /** The network's sending side, where the gateway can send on it (the simulator, a node with keys); undefined elsewhere. */
  wallet(network: Network): ChainWallet | undefined {
    const port = this.#ports.get(network);
    return port && 'send' in port ? (port as ChainWallet) : undefined;
  }

  /**
   * Whether refunds can be paid out on the network: the simulator's always, a node's where its family has a payout
   * strategy (EVM's and TRON's: chains/port.ts, SigningPayoutPort).
   */
  sendsPayouts(network: Network): boolean {
    return this.port(network) instanceof SimulatedChain || this.payouts(network) !== undefined;
  }

  /** A node's network's payouts, signed by the merchant's payout wallet; undefined for the simulator's (sent with their record). */
  payouts(network: Network): SigningPayoutPort | undefined {
    const port = this.port(network);
    return 'prepare' in port ? (port as unknown as SigningPayoutPort) : undefined;
  }

  /** The simulator of a simulated network; undefined for a node's. */
  simulated(network: Network): SimulatedChain | undefined {
    const port = this.#ports.get(network);
    return port instanceof SimulatedChain ? port : undefined;
  }

  /** Mines a block on each simulated network whose interval has passed; a network that fails is logged, the others mine. */
  async mineDue(): Promise<void> {
    for (const port of this.#ports.values()) {
      if (port instanceof SimulatedChain) await port.mineIfDue().catch((error: unknown) => log.error({ err: error, network: port.network.id }, 'simulator: mining failed'));
    }
  }

  /** Mines the simulated networks' blocks as they come due. */
  startMining(): void {
    this.#timer = setInterval(() => void this.mineDue(), MINING_TICK_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    for (const port of this.#ports.values()) await (port as { close?: () => Promise<void> }).close?.();
  }
}

/** Tries a node this many times, a second apart, for what the configuration left to it, before the start fails. */
const START_ATTEMPTS = 5;

/**
 * The networks with every token's decimals (where the configuration left them out, the token's contract says), and
 * each node known for what it is: a development node (anvil) lets the sandbox's wallet fund and mine on it. Live asks
 * no node that (`findDevelopmentNodes` false): it funds and mines on none.
 */
export async function resolveNetworks(specs: readonly NetworkSpec[], { findDevelopmentNodes = true } = {}): Promise<NetworkConfig[]> {
  const resolved: NetworkConfig[] = [];
  for (const { assets, ...spec } of specs) {
    const network = { ...spec };
    const { isDevelopmentNode, tokenDecimals } = GATEWAY_FAMILIES[network.family];
    if (findDevelopmentNodes && network.source.kind === 'node' && !network.source.dev && isDevelopmentNode) {
      // One try: a node that does not answer now is taken for what it was configured as.
      network.source = { ...network.source, dev: await isDevelopmentNode(network.source).catch(() => false) };
    }
    const withDecimals = [];
    for (const { rate_vnd: _rate, ...asset } of assets) {
      if (asset.decimals !== undefined) {
        withDecimals.push({ ...asset, decimals: asset.decimals });
        continue;
      }
      if (network.source.kind !== 'node' || !asset.token_contract || !tokenDecimals) throw new Error(`${network.id}: ${asset.asset} has no decimals`);
      for (let attempt = 1; ; attempt++) {
        try {
          withDecimals.push({ ...asset, decimals: await tokenDecimals(network.source, asset.token_contract) });
          break;
        } catch (error) {
          if (attempt >= START_ATTEMPTS) {
            throw new Error(
              `${network.id}: the decimals of ${asset.asset} (${asset.token_contract}) could not be read from its node (${(error as Error).message.split('\n')[0]}); ` +
                'give them in the configuration (ETHEREUM_USDT_DECIMALS, or decimals in EVM_NETWORKS) to start without asking it',
              { cause: error },
            );
          }
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      }
    }
    resolved.push({ ...network, assets: withDecimals });
  }
  return resolved;
}
