// The sandbox test wallet: one address per network (from its own HD seed), funded with test coins from a faucet,
// sending to any address through the network's chain port like any customer's wallet (the watcher finds its transfer
// on the chain). It is the customer's side of the sandbox; refunds come back to it.
import { HDKey } from '@scure/bip32';
import { hexToBytes } from '@noble/hashes/utils.js';
import type { AssetCode, Network } from '../../../contract/index.js';
import { deriveAddress, deriveKey, isValidAddress } from '../../../codecs/addresses.js';
import { formatAtomic, parseDecimal } from '../../../codecs/amounts.js';
import type { Chains } from '../../chains/chains.js';
import type { AssetInfo, Networks } from '../../chains/networks.js';
import type { ChainWallet, Signer } from '../../chains/port.js';
import { InsufficientFunds } from '../../chains/simulated/simulated-chain.js';
import { invalid } from '../../errors.js';
import { firstLine, log } from '../../logging.js';
import type { Watcher } from '../chains/watcher.js';

/** What one faucet call gives of each asset: enough for hundreds of test orders. */
const FAUCET: Record<AssetCode, string> = { USDT: '10000', BTC: '0.5' };
const FAUCET_OTHERWISE = '5';

export interface WalletBalance {
  asset: AssetCode;
  network: Network;
  address: string;
  balance: string;
}

export interface WalletState {
  addresses: Record<Network, string>;
  balances: WalletBalance[];
}

export interface WalletTransfer {
  to: string;
  asset: AssetCode;
  network: Network;
  amount: string;
}

export class TestWallet {
  readonly addresses: Record<Network, string> = {};
  readonly #signers = new Map<Network, Signer>();

  constructor(
    private readonly chains: Chains,
    private readonly networks: Networks,
    private readonly watcher: Watcher,
    seedHex: string,
  ) {
    const root = HDKey.fromMasterSeed(hexToBytes(seedHex));
    for (const network of networks.all) {
      const key = deriveKey(root, network.family, 0);
      this.addresses[network.id] = deriveAddress(root, network.family, 0);
      this.#signers.set(network.id, { address: this.addresses[network.id]!, privateKey: key.privateKey! });
    }
  }

  /**
   * Its address on each network, and the balance of every asset on every network it can use (a public network's
   * node: the tester funds it).
   */
  async state(): Promise<WalletState> {
    const balances = await Promise.all(
      this.#assets().map(async ({ info, wallet }) => {
        const address = this.addresses[info.network]!;
        return { asset: info.asset, network: info.network, address, balance: formatAtomic(await wallet.balance(info.asset, address), info.decimals) };
      }),
    );
    return { addresses: this.addresses, balances };
  }

  /** Tops up every asset with test coins, confirmed at once; answers the wallet as it is then. */
  async faucet(): Promise<WalletState> {
    for (const { info, wallet } of this.#assets()) await wallet.fund(this.addresses[info.network]!, info.asset, faucetAmount(info));
    return this.state();
  }

  /** At start: tops up each network where the wallet holds nothing (a network that cannot be reached is left for later). */
  async faucetWhereEmpty(): Promise<void> {
    for (const network of this.networks.all) {
      const wallet = this.chains.wallet(network.id);
      if (!wallet || !canFund(this.networks, network.id)) continue;
      const address = this.addresses[network.id]!;
      try {
        const held = await Promise.all(network.assets.map((a) => wallet.balance(a.asset, address)));
        if (held.every((b) => b === 0n)) for (const a of network.assets) await wallet.fund(address, a.asset, faucetAmount(a));
      } catch (error) {
        log.warn({ network: network.id, error: firstLine(error) }, 'test wallet: the network could not be funded at start');
      }
    }
  }

  /** Sends test coins; the transfer waits for the next block. */
  async transfer(request: WalletTransfer): Promise<{ tx_hash: string }> {
    const network = this.networks.get(request.network);
    if (!network) throw invalid(`${request.network} is not a network of this gateway.`, [{ path: 'network', message: `must be one of ${this.networks.ids.join(', ')}` }]);
    const info = this.networks.find(request.asset, request.network);
    if (!info) {
      // An asset no network carries is the asset's fault; a known one on the wrong network, the network's.
      const carried = this.networks.assets.some((a) => a.asset === request.asset);
      throw invalid(`${request.asset} is not on ${request.network}.`, [
        carried ? { path: 'network', message: `must carry ${request.asset}` } : { path: 'asset', message: `must be one of ${network.assets.map((a) => a.asset).join(', ')}` },
      ]);
    }
    if (!isValidAddress(network.family, request.to)) {
      throw invalid(`${request.to} is not a ${request.network} address.`, [{ path: 'to', message: `must be a valid ${request.network} address` }]);
    }
    let amount: bigint;
    try {
      amount = parseDecimal(request.amount, info.decimals);
    } catch (error) {
      throw invalid(`amount: ${(error as Error).message}`, [{ path: 'amount', message: (error as Error).message }]);
    }
    if (amount <= 0n) throw invalid('amount must be more than 0.', [{ path: 'amount', message: 'must be more than 0' }]);
    const wallet = this.#wallet(request.network);
    const from = this.#signers.get(request.network)!;
    const tooMuch = (balance: bigint) =>
      invalid(`The test wallet holds ${formatAtomic(balance, info.decimals)} ${request.asset}; use the faucet to top it up.`, [
        { path: 'amount', message: `must be at most the balance, ${formatAtomic(balance, info.decimals)} ${request.asset}` },
      ]);
    let tx_hash: string;
    try {
      if (network.source.kind === 'node') {
        const balance = await wallet.balance(request.asset, from.address);
        if (balance < amount) throw tooMuch(balance);
      }
      tx_hash = await wallet.send(from, request.to, request.asset, amount);
    } catch (error) {
      if (error instanceof InsufficientFunds) throw tooMuch(error.balance);
      throw error;
    }
    // A simulated chain told the watcher already; a node's waiting transaction is looked for now, not at the next poll.
    if (network.source.kind === 'node') await this.watcher.follow(request.network);
    return { tx_hash };
  }

  #wallet(network: Network): ChainWallet {
    const wallet = this.chains.wallet(network);
    if (!wallet) throw invalid(`The test wallet cannot send on ${network}.`, [{ path: 'network', message: 'must be a network the test wallet can use' }]);
    return wallet;
  }

  /** The assets of the networks where the wallet can be funded: simulated ones, and development nodes. */
  #assets(): { info: AssetInfo; wallet: ChainWallet }[] {
    return this.networks.assets.filter((info) => canFund(this.networks, info.network)).map((info) => ({ info, wallet: this.#wallet(info.network) }));
  }
}

const canFund = (networks: Networks, id: Network) => {
  const { source } = networks.of(id);
  return source.kind === 'simulated' || source.dev;
};

export const faucetAmount = ({ asset, decimals }: { asset: AssetCode; decimals: number }) => parseDecimal(FAUCET[asset] ?? FAUCET_OTHERWISE, decimals);
