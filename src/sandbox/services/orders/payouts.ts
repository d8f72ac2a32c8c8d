// Payouts: a refund that knows where its coins go is sent on chain, followed to its network's confirmations, and ends
// SUCCESS once they are reached, or FAILED with why (its VND back in amountToRefund, since a failed refund counts for
// nothing). Every end of a refund is written here, with its history step and its webhook, in one transaction that
// holds the refund's row: a refund ends once, whichever process sees it first.
// On a simulated network the coins leave the payment's own address in the transaction that records the send, so
// they cannot leave twice. On a node's network they leave the merchant's own payout wallet (PAYOUT_HD_SEED at the
// merchant's account, payoutPath), never another merchant's, and only within the merchant's daily cap (a payout that
// would pass it, or that its wallet cannot pay for, waits, saying why, and goes when it can). Each payout is made as
// its family's strategy says (chains/port.ts, SigningPayoutPort), signed and written down in one transaction, and only
// then broadcast, so a crash can only broadcast the same transaction again. On EVM it takes one nonce of the wallet
// (the wallet's row locked, so processes sharing the database never share one), a payout stuck without a block is
// signed again with higher fees at the same nonce, and since a refund has one nonce at most one of its transactions
// is ever mined. On TRON, which has no nonces, a transaction expires: a refund is given a new one only once its last
// expired by the chain's own time unknown to the node, so two can never both land.
// docs/payment-lifecycle.md, "Refunds", tells the whole story.
import { HDKey } from '@scure/bip32';
import { hexToBytes } from '@noble/hashes/utils.js';
import { encodeAddress, payoutPath, type NetworkFamily } from '../../../codecs/addresses.js';
import { formatAtomic } from '../../../codecs/amounts.js';
import type { Network, PayoutWallets } from '../../../contract/index.js';
import type { Chains } from '../../chains/chains.js';
import type { Networks } from '../../chains/networks.js';
import { PayoutRefused, type PayoutPlan, type PayoutTerms, type RecordedPayout, type SentTransaction, type Signer, type SigningPayoutPort } from '../../chains/port.js';
import type { Clock } from '../../clock.js';
import { conflict, invalid, notFound } from '../../errors.js';
import { firstLine, log } from '../../logging.js';
import type { Database, Sql } from '../../storage/database.js';
import {
  insertPayoutNonce,
  insertPayoutTransaction,
  lockMerchantPayouts,
  payoutAccountOf,
  payoutAccounts,
  payoutsSignedSince,
  payoutTransactionsOf,
  takeNonce,
  waitingForCapBefore,
} from '../../storage/payouts.js';
import {
  endRefund,
  insertRefundEvent,
  lapsedClaims,
  payoutsUnderWay,
  recentNodePayouts,
  refundById,
  reopenRefund,
  setPayoutWaiting,
  setRefundTransaction,
  type PayoutWaiting,
  type RefundState,
} from '../../storage/refunds.js';
import { faucetAmount } from '../sandbox/test-wallet.js';
import type { MerchantEventSink } from '../webhooks/merchant-events.js';

/** How often payouts under way are followed, when no chain says it moved. */
const FOLLOW_MS = 1_000;
/** How long a node's confirmed payout stays watched for a reorganisation that takes it back. */
const REORG_WATCH_MS = 3_600_000;
/** What a development node gives a payout wallet that holds nothing at start, in faucets of the test wallet. */
const PAYOUT_WALLET_FAUCETS = 100n;
/** The daily cap's window: a rolling 24 h. */
export const CAP_WINDOW_MS = 86_400_000;

export class Payouts {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly chains: Chains,
    private readonly networks: Networks,
    private readonly events: MerchantEventSink,
    /** The payout wallets' seed (hex). */
    payoutSeedHex: string,
    /** What each merchant's payout wallets may send in any 24 h, in VND; 0: nothing. */
    private readonly dailyCapVnd: number,
  ) {
    // A simulated chain says when it moved: its payouts are followed at once (also when the tests drive the blocks).
    for (const network of networks.all) this.chains.simulated(network.id)?.onChange(() => this.follow());
    this.#root = HDKey.fromMasterSeed(hexToBytes(payoutSeedHex));
  }

  readonly #root: HDKey;
  /** Signers by family and account: a hardened derivation is made once per process. */
  readonly #signers = new Map<string, Signer>();

  #signer(family: NetworkFamily, account: number): Signer {
    const key = `${family} ${account}`;
    let signer = this.#signers.get(key);
    if (!signer) {
      const node = this.#root.derive(payoutPath(family, account));
      this.#signers.set(key, (signer = { address: encodeAddress(family, node.publicKey!), privateKey: node.privateKey! }));
    }
    return signer;
  }

  async #walletOf(sql: Sql, merchantId: string, network: Network): Promise<Signer> {
    const account = await payoutAccountOf(sql, merchantId);
    if (account === undefined) throw notFound(`There is no merchant ${merchantId}.`);
    return this.#signer(this.networks.of(network).family, account);
  }

  /** The address of a merchant's payout wallet on a network. */
  async walletAddress(merchantId: string, network: Network): Promise<string> {
    return (await this.#walletOf(this.db, merchantId, network)).address;
  }

  /** Whether an address is any merchant's payout wallet on the network's family. */
  async isPayoutWallet(sql: Sql, network: Network, address: string): Promise<boolean> {
    const { family } = this.networks.of(network);
    return (await payoutAccounts(sql)).some((m) => this.#signer(family, m.payout_account).address === address);
  }

  /**
   * A merchant's payout wallets as it sees them (GET /api/payouts/wallets): on each node's network, the address, its
   * path from PAYOUT_HD_SEED and what it holds of each asset (null where the node cannot say now); and its daily cap,
   * with what its payouts sent in the last 24 h.
   */
  async wallets(merchantId: string): Promise<PayoutWallets> {
    const account = await payoutAccountOf(this.db, merchantId);
    if (account === undefined) throw notFound(`There is no merchant ${merchantId}.`);
    const now = this.clock.now();
    const sent = await payoutsSignedSince(this.db, merchantId, new Date(now.getTime() - CAP_WINDOW_MS));
    const wallets = await Promise.all(
      this.networks.all
        .filter((network) => network.source.kind === 'node' && this.chains.sendsPayouts(network.id))
        .map(async (network) => {
          const { address } = this.#signer(network.family, account);
          const port = this.#signing(network.id);
          const balances = await Promise.all(
            network.assets.map(async (asset) => {
              const held = await port.balance(asset.asset, address).catch(() => undefined);
              return { asset: asset.asset, balance: held === undefined ? null : formatAtomic(held, asset.decimals) };
            }),
          );
          return { network: network.id, address, derivation_path: payoutPath(network.family, account), balances };
        }),
    );
    return { daily_cap_vnd: this.dailyCapVnd, sent_last_24h_vnd: sent.reduce((sum, s) => sum + s.amount, 0), wallets };
  }

  /**
   * At start: each merchant's payout wallet on each node network, logged (it needs coins and gas), and funded where it
   * holds none on a development node. A merchant added later is funded by its operator (or at the next start).
   */
  async prepareWallets(): Promise<void> {
    const merchants = await payoutAccounts(this.db);
    for (const network of this.networks.all) {
      const wallet = this.chains.wallet(network.id);
      if (network.source.kind !== 'node' || !this.chains.sendsPayouts(network.id)) continue;
      for (const { merchant_id, payout_account } of merchants) {
        const { address } = this.#signer(network.family, payout_account);
        log.info({ network: network.id, merchant_id, address, path: payoutPath(network.family, payout_account) }, "payouts: this merchant's refunds on this network are paid out from this wallet");
        if (!network.source.dev || !wallet) continue;
        try {
          for (const asset of network.assets) {
            if ((await wallet.balance(asset.asset, address)) === 0n) await wallet.fund(address, asset.asset, faucetAmount(asset) * PAYOUT_WALLET_FAUCETS);
          }
        } catch (error) {
          log.warn({ network: network.id, merchant_id, error: firstLine(error) }, 'payouts: a payout wallet could not be funded at start');
        }
      }
    }
  }

  /**
   * Refuses a refund that could never be sent: on a network whose payouts this gateway does not send (a node of a
   * family without a payout strategy), or, naming the field, on a node's network one larger than the daily cap. (With
   * the cap at 0 every payout waits for the operator, and none is refused.)
   */
  checkPayable(network: Network, amount: number): void {
    if (!this.chains.sendsPayouts(network)) {
      throw conflict(`Refunds on ${this.networks.of(network).name} (${network}) are not paid out by this gateway yet: return the money to the customer yourself.`);
    }
    if (this.chains.simulated(network) || this.dailyCapVnd === 0 || amount <= this.dailyCapVnd) return;
    throw invalid(`${amount} VND is more than a merchant's payouts may send in a day on ${network} (${this.dailyCapVnd} VND): refund it in parts.`, [
      { path: 'amount', message: `must be at most ${this.dailyCapVnd} VND, the daily cap of payouts (PAYOUT_DAILY_CAP_VND)` },
    ]);
  }

  /** Sends a refund that has its destination, in the caller's transaction (which holds the refund's row). */
  async send(tx: Sql, refund: RefundState & { destination: string }): Promise<void> {
    const simulator = this.chains.simulated(refund.network);
    // A node's network: the refund waits, PENDING, for a payout that signs for it.
    if (!simulator) return;
    const hash = await simulator.broadcast(tx, refund.payment_address, refund.destination, refund.asset, BigInt(refund.amount_atomic));
    await setRefundTransaction(tx, refund.refund_id, hash);
    await insertRefundEvent(tx, refund.refund_id, 'sent', this.clock.now(), hash);
  }

  /** Ends a PENDING refund as FAILED with why: nothing of it was sent, or what was sent did not arrive. */
  async fail(tx: Sql, refund: RefundState, reason: string): Promise<void> {
    await endRefund(tx, refund.refund_id, 'FAILED', reason);
    await insertRefundEvent(tx, refund.refund_id, 'failed', this.clock.now(), reason);
    await this.events.emit(tx, { merchantId: refund.merchant_id, type: 'refund.failed', ref: refund.payment_link_ref, refundId: refund.refund_id });
  }

  /** Claims no one made in time end FAILED, their VND refundable again; only the order's with `scope`. */
  async endLapsedClaims(scope?: { merchantId: string; orderId: string }): Promise<void> {
    const now = this.clock.now();
    for (const refundId of await lapsedClaims(this.db, now, scope)) {
      await this.db.transaction(async (tx) => {
        const refund = await refundById(tx, refundId, { lock: true });
        if (refund?.refund_status !== 'PENDING' || refund.destination !== null) return;
        await this.fail(tx, refund, 'the claim link expired before the customer gave an address');
      });
    }
  }

  /** Ends the claims that ran out, and follows every payout under way: each one confirmed on its network ends SUCCESS. One that fails to be read waits for the next round. */
  follow(): Promise<void> {
    const round = async () => {
      await this.endLapsedClaims();
      for (const refundId of await recentNodePayouts(this.db, new Date(this.clock.now().getTime() - REORG_WATCH_MS))) {
        await this.#stillMined(refundId).catch((error: unknown) => log.error({ err: error, refund_id: refundId }, 'payouts: checking a confirmed payout failed'));
      }
      for (const refundId of await payoutsUnderWay(this.db)) {
        await this.#followOne(refundId).catch((error: unknown) => log.error({ err: error, refund_id: refundId }, 'payouts: following a payout failed'));
      }
    };
    // One round at a time per process: a chain that moves during a round is followed by the next.
    this.#running = this.#running.then(round).catch((error: unknown) => log.error({ err: error }, 'payouts: round failed'));
    return this.#running;
  }

  async #followOne(refundId: string): Promise<void> {
    const seen = await refundById(this.db, refundId);
    if (seen?.refund_status !== 'PENDING' || !seen.destination) return;
    const simulator = this.chains.simulated(seen.network);
    if (simulator) {
      if (seen.psp_refund_id) await this.#settle(seen, seen.psp_refund_id, await simulator.locate(seen.psp_refund_id), (await simulator.head()).height);
      return;
    }
    const port = this.#signing(seen.network);
    const signed = await payoutTransactionsOf(this.db, refundId);
    if (!signed.length) return this.#sign(port, { ...seen, destination: seen.destination });
    const head = await this.chains.port(seen.network).head();
    const where = await Promise.all(signed.map(async (t) => ({ t, at: await port.locate(t.hash) })));
    const mined = where.find((w) => w.at?.height != null);
    if (mined) return this.#settle(seen, mined.t.hash, mined.at, head.height);
    const newest = signed[0]!;
    const step = await port.step(newest, where.some((w) => w.at), head, this.clock.now());
    // Signed and written down, but the node has it not (a crash before the broadcast, a node that dropped it): the
    // same transaction again. Or a new one, where the strategy says the last can no longer land alone.
    if (step === 'broadcast') await this.#broadcast(port, seen, newest);
    else if (step === 'replace') await this.#replace(port, seen, newest);
  }

  /**
   * A confirmed payout that a reorganisation took back off the node's chain is never forgotten: the refund is PENDING
   * again (the merchant hears refund.pending, the history says why), its transaction is sent again where the node no
   * longer has it (the same nonce, so it cannot pay twice), and it is followed to its confirmations as before.
   */
  async #stillMined(refundId: string): Promise<void> {
    const seen = await refundById(this.db, refundId);
    if (seen?.refund_status !== 'SUCCESS' || !seen.psp_refund_id) return;
    const port = this.#signing(seen.network);
    const at = await port.locate(seen.psp_refund_id);
    if (at?.height != null) return;
    const reopened = await this.db.transaction(async (tx) => {
      const refund = await refundById(tx, refundId, { lock: true });
      if (refund?.refund_status !== 'SUCCESS' || refund.psp_refund_id !== seen.psp_refund_id) return false;
      await reopenRefund(tx, refundId);
      await insertRefundEvent(tx, refundId, 'sent', this.clock.now(), `${refund.psp_refund_id} (a reorganisation took it back off the chain: sent again)`);
      await this.events.emit(tx, { merchantId: refund.merchant_id, type: 'refund.pending', ref: refund.payment_link_ref, refundId });
      return true;
    });
    log.warn({ refund_id: refundId, tx_hash: seen.psp_refund_id }, 'payouts: a reorganisation took a confirmed payout back; it is sent again');
    const [newest] = await payoutTransactionsOf(this.db, refundId);
    if (reopened && !at && newest) await this.#broadcast(port, seen, newest);
  }

  /** The refund's payout transaction, mined at `at` (or not yet): SUCCESS once it has its confirmations, FAILED if it reverted. */
  async #settle(seen: RefundState, hash: string, at: SentTransaction | undefined, tip: number): Promise<void> {
    if (at?.height == null || tip - at.height + 1 < this.networks.of(seen.network).confirmations) return;
    await this.db.transaction(async (tx) => {
      const refund = await refundById(tx, seen.refund_id, { lock: true });
      if (refund?.refund_status !== 'PENDING') return;
      if (!at.ok) return this.fail(tx, refund, `the payout transaction ${hash} ${at.failure ? `failed on chain: ${at.failure}` : 'reverted on chain (an address that takes no plain transfer, or a token that refused it)'}`);
      if (refund.psp_refund_id !== hash) await setRefundTransaction(tx, refund.refund_id, hash);
      await endRefund(tx, refund.refund_id, 'SUCCESS', null);
      await insertRefundEvent(tx, refund.refund_id, 'confirmed', this.clock.now(), hash);
      await this.events.emit(tx, { merchantId: refund.merchant_id, type: 'refund.succeeded', ref: refund.payment_link_ref, refundId: refund.refund_id });
    });
  }

  /**
   * The first payout of a claimed refund: within the merchant's daily cap and what its wallet holds (else it waits,
   * saying why), a nonce of the merchant's payout wallet where its family has them, signed and written down, then
   * broadcast.
   */
  async #sign(port: SigningPayoutPort, seen: RefundState & { destination: string }): Promise<void> {
    // Checked first without the lock, so that a payout the cap holds asks the node nothing; again under it to sign.
    const held = await this.#capWait(this.db, seen);
    if (held) return this.#wait(seen, held);
    const plan = await this.#plan(this.db, seen);
    let terms: PayoutTerms;
    try {
      terms = await port.prepare(plan);
    } catch (error) {
      if (!(error instanceof PayoutRefused)) throw error;
      if (error.unfunded) return this.#wait(seen, { reason: 'wallet_funds', detail: `${error.reason}: it is sent once the wallet is funded`, until: null });
      // Nothing was signed: the refund fails with the reason, its amount back, and can be made again.
      return this.db.transaction(async (tx) => {
        const refund = await refundById(tx, seen.refund_id, { lock: true });
        if (refund?.refund_status === 'PENDING' && !(await payoutTransactionsOf(tx, refund.refund_id)).length) await this.fail(tx, refund, `the payout cannot be sent: ${error.reason}`);
      });
    }
    const chainNonce = await port.nonce?.(plan.from.address);
    const signed = await this.db.transaction(async (tx) => {
      const refund = await refundById(tx, seen.refund_id, { lock: true });
      if (refund?.refund_status !== 'PENDING' || (await payoutTransactionsOf(tx, refund.refund_id)).length) return undefined;
      await lockMerchantPayouts(tx, refund.merchant_id);
      const waiting = await this.#capWait(tx, refund);
      if (waiting) {
        await this.#noteWaiting(tx, refund, waiting);
        return undefined;
      }
      if (chainNonce !== undefined) {
        terms = { ...terms, nonce: await takeNonce(tx, refund.network, plan.from.address, chainNonce) };
        await insertPayoutNonce(tx, refund.network, plan.from.address, terms.nonce!, refund.refund_id);
      }
      if (refund.payout_waiting) await setPayoutWaiting(tx, refund.refund_id, null);
      return this.#record(tx, port, refund, plan, terms);
    });
    if (signed) await this.#broadcast(port, seen, signed);
  }

  /**
   * Whether the merchant's daily cap holds this payout back, and until when: what its payouts signed in the last 24 h,
   * with the refunds made before this one that wait for the cap (they go first), and this one, must fit the cap. The
   * window allows it once enough of those payouts are 24 h old; never, for a payout larger than the cap.
   */
  async #capWait(sql: Sql, refund: RefundState): Promise<PayoutWaiting | undefined> {
    const cap = this.dailyCapVnd;
    if (cap === 0) return { reason: 'daily_cap', detail: 'payouts from payout wallets are paused: the operator set PAYOUT_DAILY_CAP_VND to 0', until: null };
    if (refund.amount > cap) {
      return { reason: 'daily_cap', detail: `${refund.amount} VND is more than the daily cap of ${cap} VND (PAYOUT_DAILY_CAP_VND): cancel it and refund in parts`, until: null };
    }
    const now = this.clock.now().getTime();
    const sent = await payoutsSignedSince(sql, refund.merchant_id, new Date(now - CAP_WINDOW_MS));
    const before = await waitingForCapBefore(sql, refund.merchant_id, refund.refund_id, cap);
    const inWindow = sent.reduce((sum, s) => sum + s.amount, 0);
    let total = inWindow + before + refund.amount;
    if (total <= cap) return undefined;
    let until = now;
    for (const s of sent) {
      total -= s.amount;
      until = s.signed_at.getTime() + CAP_WINDOW_MS;
      if (total <= cap) break;
    }
    const queue = before ? `, the ${before} VND of refunds made before it that wait for the cap` : '';
    return {
      reason: 'daily_cap',
      detail: `the merchant's payouts of the last 24 h (${inWindow} VND)${queue} and this one (${refund.amount} VND) would pass the daily cap of ${cap} VND (PAYOUT_DAILY_CAP_VND): it is sent once the window allows`,
      until: new Date(until),
    };
  }

  /** The refund's payout waits, saying why (written only when that changed). */
  #wait(seen: RefundState, waiting: PayoutWaiting): Promise<void> {
    return this.db.transaction(async (tx) => {
      const refund = await refundById(tx, seen.refund_id, { lock: true });
      if (refund?.refund_status === 'PENDING' && !(await payoutTransactionsOf(tx, refund.refund_id)).length) await this.#noteWaiting(tx, refund, waiting);
    });
  }

  async #noteWaiting(tx: Sql, refund: RefundState, waiting: PayoutWaiting): Promise<void> {
    const same = refund.payout_waiting === waiting.reason && refund.payout_waiting_detail === waiting.detail && refund.payout_waiting_until?.getTime() === waiting.until?.getTime();
    if (same) return;
    await setPayoutWaiting(tx, refund.refund_id, waiting);
    log.info({ refund_id: refund.refund_id, merchant_id: refund.merchant_id, waiting: waiting.reason, until: waiting.until }, `payouts: a payout waits: ${waiting.detail}`);
  }

  /**
   * A new transaction for a payout whose last one the strategy gave up on (EVM: stuck, replaced at the same nonce with
   * higher fees; TRON: expired unknown). A TRON wallet that can no longer pay for it waits to be funded, saying so; a
   * replacement the network refuses fails the refund (none of its transactions can land any more).
   */
  async #replace(port: SigningPayoutPort, seen: RefundState, stuck: RecordedPayout): Promise<void> {
    const plan = await this.#plan(this.db, { ...seen, destination: seen.destination! });
    let terms: PayoutTerms;
    try {
      terms = await port.replacement(plan, stuck.terms);
    } catch (error) {
      if (!(error instanceof PayoutRefused)) throw error;
      return this.db.transaction(async (tx) => {
        const refund = await refundById(tx, seen.refund_id, { lock: true });
        const [newest] = await payoutTransactionsOf(tx, seen.refund_id);
        if (refund?.refund_status !== 'PENDING' || newest?.hash !== stuck.hash) return;
        if (error.unfunded) await this.#noteWaiting(tx, refund, { reason: 'wallet_funds', detail: `${error.reason}: it is sent again once the wallet is funded`, until: null });
        else await this.fail(tx, refund, `the payout cannot be sent again: ${error.reason}`);
      });
    }
    const signed = await this.db.transaction(async (tx) => {
      const refund = await refundById(tx, seen.refund_id, { lock: true });
      const [newest] = await payoutTransactionsOf(tx, seen.refund_id);
      if (refund?.refund_status !== 'PENDING' || newest?.hash !== stuck.hash) return undefined;
      if (refund.payout_waiting) await setPayoutWaiting(tx, refund.refund_id, null);
      return this.#record(tx, port, refund, plan, terms);
    });
    if (signed) await this.#broadcast(port, seen, signed);
  }

  /**
   * Broadcasts a payout transaction written down. One the network refuses for good (PayoutRefused: a bad signature, a
   * contract that refuses it) cannot land: the refund fails with the network's words, if that is still its newest.
   */
  async #broadcast(port: SigningPayoutPort, seen: RefundState, payout: { hash: string; raw: string }): Promise<void> {
    try {
      await port.broadcast(payout.raw);
    } catch (error) {
      if (!(error instanceof PayoutRefused)) throw error;
      await this.db.transaction(async (tx) => {
        const refund = await refundById(tx, seen.refund_id, { lock: true });
        const [newest] = await payoutTransactionsOf(tx, seen.refund_id);
        if (refund?.refund_status === 'PENDING' && newest?.hash === payout.hash) await this.fail(tx, refund, `the network refused the payout transaction ${payout.hash}: ${error.reason}`);
      });
    }
  }

  /** Signs a payout and writes it down, as the refund's transaction, before anything is broadcast. */
  async #record(tx: Sql, port: SigningPayoutPort, refund: RefundState, plan: PayoutPlan, terms: PayoutTerms) {
    const signed = await port.sign(plan, terms);
    await insertPayoutTransaction(tx, refund.refund_id, { ...signed, terms, signed_at: this.clock.now() });
    await setRefundTransaction(tx, refund.refund_id, signed.hash);
    await insertRefundEvent(tx, refund.refund_id, 'sent', this.clock.now(), signed.hash);
    return signed;
  }

  /** The signing payouts of a node's network (chains/chains.ts: only where its family has a payout strategy). */
  #signing(network: Network): SigningPayoutPort {
    const port = this.chains.payouts(network);
    if (!port) throw new Error(`${network}: this gateway sends no payouts on it`);
    return port;
  }

  /** The payout of a refund: from its merchant's payout wallet on the refund's network. */
  async #plan(sql: Sql, refund: RefundState & { destination: string }): Promise<PayoutPlan> {
    return { from: await this.#walletOf(sql, refund.merchant_id, refund.network), to: refund.destination, asset: refund.asset, amount: BigInt(refund.amount_atomic) };
  }

  /** Follows payouts on a timer (a node's network tells nothing by itself). */
  start(): void {
    this.#timer = setInterval(() => void this.follow(), FOLLOW_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }
}
