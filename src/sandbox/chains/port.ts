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
  /**
   * Whether the chain shows the address used: it sent a transaction, or holds the network's coin or one of its tokens.
   * Only a node's chain can tell: the simulator's is in the database, which a restore rolls back with the rest. Throws
   * when the node does not answer; ask head() first, which throws for a node behind (it may not know of the latest use).
   */
  addressUsed?(address: string): Promise<boolean>;
  /**
   * What each address holds of the network's token, read at the tip, and a height asked after the balances, so no
   * balance is of a block above it: the watcher's cross-check (services/chains/cross-check.ts) compares them with what
   * it recorded once it has followed that far. Only where a node answers it (TRON's); throws when the node does not.
   */
  tokenBalances?(addresses: readonly string[]): Promise<{ asset: AssetCode; height: number; balances: bigint[] }>;
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

/**
 * Where a transaction the gateway sent stands: in a block at `height` (`ok` false when it failed there), or waiting
 * (null). `failure`: the chain's own reason for one that failed (TRON's result and message), where it gives one.
 */
export interface SentTransaction {
  height: number | null;
  ok: boolean;
  failure?: string;
}

/** Paying refunds out (services/orders/payouts.ts): following what the gateway sent to its confirmations. */
export interface PayoutPort {
  /** The transaction as the chain shows it now; undefined when the chain does not know it (dropped, or never sent). */
  locate(hash: string): Promise<SentTransaction | undefined>;
}

/** EIP-1559 fees, in the native coin's atomic units per gas. */
export interface PayoutFees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * How a payout transaction is made, as its family makes it; what is written down with it (storage/payouts.ts). EVM:
 * the wallet's nonce (one per refund, kept by every replacement), its gas and EIP-1559 fees. TRON: no nonce; the
 * recent block it names (TaPoS) and its time, when it expires (the chain's time: no block after it can hold it) and
 * the most TRX, in sun, it may burn for energy.
 */
export interface PayoutTerms {
  nonce?: number;
  gas?: bigint;
  fees?: PayoutFees;
  reference?: { number: number; id: string; time: Date };
  expiresAt?: Date;
  feeLimit?: bigint;
}

/** A payout signed and not yet sent: written down before it is broadcast, so a crash can only send it again, never another. */
export interface SignedPayout {
  hash: string;
  raw: string;
}

/** A payout transaction as written down: its terms and when it was signed (the gateway's clock). */
export interface RecordedPayout extends SignedPayout {
  terms: PayoutTerms;
  signed_at: Date;
}

/** What a payout none of whose transactions is in a block needs now: its newest sent again, a new transaction, or time. */
export type PayoutStep = 'broadcast' | 'replace' | 'wait';

/** What a payout is made of, before it is signed. */
export interface PayoutPlan {
  from: Signer;
  to: string;
  asset: AssetCode;
  amount: bigint;
}

/**
 * Sending payouts from a merchant's payout wallet (a key of the gateway's), where the network takes signed
 * transactions (a node's): each family's strategy. Never two transactions of one refund can both land: EVM's share
 * the refund's nonce; a TRON one is replaced only once it expired, unknown to the node.
 */
export interface SigningPayoutPort extends PayoutPort {
  /**
   * Whether each payout holds a nonce of its wallet, taken under the wallet's lock (storage/payouts.ts, takeNonce),
   * from this count of the node's, waiting transactions included; undefined where the family has no nonces.
   */
  nonce?(address: string): Promise<number>;
  /** The terms of a payout's first transaction; throws PayoutRefused, saying why, when it cannot be sent (funds, a call that reverts). */
  prepare(plan: PayoutPlan): Promise<PayoutTerms>;
  /**
   * What the refund's payout needs when none of its transactions is in a block: `newest` its latest, `known` whether
   * the node knows any of them, `head` the chain's tip, `now` the gateway's time.
   */
  step(newest: RecordedPayout, known: boolean, head: BlockHeader, now: Date): Promise<PayoutStep>;
  /** The terms of the transaction that replaces `previous`; throws PayoutRefused only where no earlier one can land any more. */
  replacement(plan: PayoutPlan, previous: PayoutTerms): Promise<PayoutTerms>;
  sign(plan: PayoutPlan, terms: PayoutTerms): Promise<SignedPayout>;
  /**
   * Sends a signed payout; one the node already has is no error. Throws PayoutRefused when the network refuses this
   * very transaction for good (a bad signature, a contract that refuses it): the refund then fails with the reason.
   */
  broadcast(raw: string): Promise<void>;
  /** What an address holds of an asset, transfers still waiting for a block included: a payout wallet's balance. */
  balance(asset: AssetCode, address: string): Promise<bigint>;
}

/**
 * A payout the network would not take as it is: `reason` says why, in words for the merchant. `unfunded`: the wallet
 * holds too little of the coin or of its gas, and the same payout can go once it is funded.
 */
export class PayoutRefused extends Error {
  constructor(
    readonly reason: string,
    readonly unfunded = false,
  ) {
    super(reason);
  }
}
