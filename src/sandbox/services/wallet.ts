// The sandbox test wallet: one address per network, funded with test coins from a faucet, sending to any address.
// It is the customer's side of the sandbox; the refund rail sends back to it the same way.
import { HDKey } from '@scure/bip32';
import { hexToBytes } from '@noble/hashes/utils.js';
import { ASSETS, findAsset, NETWORKS, type AssetCode, type Network } from '../../contract/index.js';
import { deriveAddress, isValidAddress } from '../chain/addresses.js';
import { formatAtomic, parseDecimal } from '../chain/amounts.js';
import { invalid } from '../errors.js';
import type { Database } from '../storage/database.js';
import { markUnsettledAt } from '../storage/payments.js';
import type { Chain } from './chain.js';
import type { Watcher } from './watcher.js';

/** What one faucet call gives of each asset. */
const FAUCET: Record<string, string> = {
  'USDT/TRON': '10000',
  'USDT/ETHEREUM': '10000',
  'ETH/ETHEREUM': '5',
  'BTC/BITCOIN': '0.5',
};

export interface WalletBalance {
  asset: AssetCode;
  network: Network;
  address: string;
  balance: string;
}

export interface WalletTransfer {
  to: string;
  asset: AssetCode;
  network: Network;
  amount: string;
}

export class TestWallet {
  readonly addresses: Record<Network, string>;

  constructor(
    private readonly db: Database,
    private readonly chain: Chain,
    private readonly watcher: Watcher,
    seedHex: string,
  ) {
    const root = HDKey.fromMasterSeed(hexToBytes(seedHex));
    this.addresses = Object.fromEntries(NETWORKS.map((n) => [n, deriveAddress(root, n, 0)])) as Record<Network, string>;
  }

  async balances(): Promise<WalletBalance[]> {
    return Promise.all(
      ASSETS.map(async ({ asset, network, decimals }) => {
        const address = this.addresses[network];
        return { asset, network, address, balance: formatAtomic(await this.chain.balance(this.db, network, asset, address), decimals) };
      }),
    );
  }

  /** Tops up every asset with test coins, confirmed at once. */
  async faucet(): Promise<WalletBalance[]> {
    await this.db.transaction(async (tx) => {
      for (const { asset, network, decimals } of ASSETS) {
        const amount = parseDecimal(FAUCET[`${asset}/${network}`] ?? '0', decimals);
        await this.chain.broadcast(tx, { network, asset, from: 'faucet', to: this.addresses[network], amount }, { mined: true });
      }
    });
    return this.balances();
  }

  /** Sends test coins; the transfer waits in the mempool for the next block. */
  async transfer(request: WalletTransfer): Promise<{ tx_hash: string }> {
    const info = findAsset(request.asset, request.network);
    if (!info) throw invalid(`${request.asset} is not on ${request.network}.`, [{ path: 'network', message: `must carry ${request.asset}` }]);
    if (!isValidAddress(request.network, request.to)) {
      throw invalid(`${request.to} is not a ${request.network} address.`, [{ path: 'to', message: `must be a valid ${request.network} address` }]);
    }
    let amount: bigint;
    try {
      amount = parseDecimal(request.amount, info.decimals);
    } catch (error) {
      throw invalid(`amount: ${(error as Error).message}`, [{ path: 'amount', message: (error as Error).message }]);
    }
    if (amount <= 0n) throw invalid('amount must be more than 0.', [{ path: 'amount', message: 'must be more than 0' }]);
    const from = this.addresses[request.network];
    const tx_hash = await this.db.transaction(async (tx) => {
      // Serializes the wallet's sends, so two at once cannot both spend the same coins.
      await tx.query('SELECT pg_advisory_xact_lock(7310003)');
      await markUnsettledAt(tx, request.network, request.to);
      const balance = await this.chain.balance(tx, request.network, request.asset, from);
      if (balance < amount) {
        throw invalid(`The test wallet holds ${formatAtomic(balance, info.decimals)} ${request.asset}; use the faucet to top it up.`, [
          { path: 'amount', message: `must be at most the balance, ${formatAtomic(balance, info.decimals)} ${request.asset}` },
        ]);
      }
      return this.chain.broadcast(tx, { network: request.network, asset: request.asset, from, to: request.to, amount });
    });
    // Committed: the answer is the transfer's, whatever its reconciliation does (the watcher retries a failed one).
    await this.watcher.afterTransfer(request.to);
    return { tx_hash };
  }
}
