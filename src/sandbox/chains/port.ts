// The chain port: all the gateway asks of a network, whatever stands behind it (the simulator in
// simulated/simulated-chain.ts, or a JSON-RPC node in evm/node-chain.ts). The watcher reads blocks and waiting
// transfers through it and records them as the gateway's own facts (services/chains/chain-facts.ts); nothing else in the
// gateway reads a chain. docs/architecture.md draws it.
import type { AssetCode } from '../../contract/index.js';
import type { NetworkConfig } from './networks.js';

export interface BlockHeader {
  height: number;
  hash: string;
  /** The chain's own time for the block. */
  time: Date;
}

/** Value moved into an address: by a transaction, an inner call, or a token's Transfer event. */
export interface ChainTransfer {
  tx_hash: string;
  /** Where in the transaction (migrations/007_chain_facts.sql): `call:`, `call:0.1`, `log:N`, `pending:N`. */
  position: string;
  asset: AssetCode;
  from: string;
  to: string;
  amount: bigint;
}

export interface ChainBlock extends BlockHeader {
  parent_hash: string;
  /** Every transfer of the network's assets in the block, to any address: the watcher keeps its own. */
  transfers: ChainTransfer[];
}

export interface ChainPort {
  readonly network: NetworkConfig;
  /** The tip. Throws when the chain cannot be seen now: a node unreachable, timing out, or behind (syncing). */
  head(): Promise<BlockHeader>;
  /** The block at a height of the chain as it is now; undefined above the tip. */
  header(height: number): Promise<BlockHeader | undefined>;
  /** Blocks `from`…`to` (at most a few dozen), in order, each after its parent; throws if the chain moved meanwhile. */
  blocks(from: number, to: number): Promise<ChainBlock[]>;
  /**
   * Transfers seen and not yet in a block, all of them (the watcher drops the ones it no longer sees); undefined where
   * the network shows none (then nothing the gateway recorded as waiting is dropped on its say).
   */
  pending(): Promise<ChainTransfer[] | undefined>;
  /** Called at once, after the chain changed, where the chain can tell (the simulator); a node's changes are polled. */
  onChange?(listener: () => Promise<void>): void;
}

/** A key that signs what leaves its address. */
export interface Signer {
  address: string;
  privateKey: Uint8Array;
}

/** Sending on a network: the sandbox's test wallet. */
export interface ChainWallet {
  /** What an address holds of an asset, transfers still waiting for a block included. */
  balance(asset: AssetCode, address: string): Promise<bigint>;
  /** Sends; the transaction's hash. */
  send(from: Signer, to: string, asset: AssetCode, amount: bigint): Promise<string>;
  /** Gives an address test coins (a faucet), confirmed at once; refused where the chain has no faucet the gateway can use. */
  fund(address: string, asset: AssetCode, amount: bigint): Promise<void>;
  /** Mines blocks now; the new tip. Refused where the chain mines its own (a public network's node). */
  mine(blocks: number): Promise<number>;
}

/** Where a transaction the gateway sent stands: in a block at `height`, or waiting for one (null). */
export interface SentTransaction {
  height: number | null;
}

/** Paying refunds out (services/orders/payouts.ts): following what the gateway sent to its confirmations. */
export interface PayoutPort {
  /** The transaction as the chain shows it now; undefined when the chain does not know it (dropped, or never sent). */
  locate(hash: string): Promise<SentTransaction | undefined>;
}
