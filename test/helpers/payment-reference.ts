// The reference model of payment statuses: what each payment of a link must be, and what VND it must credit, hold and
// let the merchant refund, given what was sent to which address, when (against its quote's window), with how many
// confirmations, and what the merchant decided. Written from the design contract (DESIGN.md, sections 3-4) and
// docs/payment-lifecycle.md, on purpose without src/sandbox/services (payment-state.ts above all): the model test
// compares the gateway with it, so a rule that is wrong there is not also wrong in the oracle. Each rule names its
// source; where the docs left a choice open, docs/payment-lifecycle.md ("Decisions the reference model pins") says
// which was made.
import type { LinkStatus, PaymentStatus } from '../../src/contract/index.js';

/** Confirmations a network's money needs (docs/payment-lifecycle.md, "confirming": TRON 3, Ethereum 3, Bitcoin 2). */
export const CONFIRMATIONS: Readonly<Record<string, number>> = { TRON: 3, ETHEREUM: 3, BITCOIN: 2 };

/** DESIGN.md §4: "An underpayment tolerance (default 0.5%) absorbs exchange withdrawal fees." In basis points. */
export const TOLERANCE_BPS = 50n;

/** One transfer to a payment's address. Instants are ms since the epoch. */
export interface SentMoney {
  amount: bigint;
  /** When it was first seen: whether it came in time is judged by this. */
  seenAt: number;
  confirmations: number;
  /** When it reached its confirmations (orders who completed first); null before. */
  confirmedAt: number | null;
}

/** One quote: a payment opened on the link, oldest first. */
export interface Quote {
  network: string;
  /** What it asks for, in atomic units, and one step of the quote's precision (USDT 0.01, ETH 0.000001, BTC 1 sat). */
  amountAtomic: bigint;
  step: bigint;
  amountVnd: number;
  /** VND per unit, a decimal string, and the asset's decimals. */
  rate: string;
  decimals: number;
  openedAt: number;
  endsAt: number;
  /** The merchant's decision: accepted this held payment, and when. */
  acceptedAt: number | null;
  /** VND of the refunds made from it that did not fail. */
  refundedVnd: number;
  sent: readonly SentMoney[];
}

export interface Order {
  amountVnd: number;
  expiresAt: number;
  /** A newer link for the order replaced this one. */
  replacedAt: number | null;
  quotes: readonly Quote[];
}

export interface ExpectedPayment {
  status: PaymentStatus;
  overpaid: boolean;
  creditedVnd: number;
  heldVnd: number;
  /** What a refund of this payment may still return. */
  refundableVnd: number;
  /** When it became paid (or paid_late); null otherwise. */
  paidAt: number | null;
  /** Why: the rule that decided its status, for a failure's message. */
  rule: string;
}

export interface ExpectedLink {
  status: LinkStatus;
  paidBy: number | null;
  paidAt: number | null;
  payments: ExpectedPayment[];
  /** What the order can still refund through this link (amountToRefund). */
  refundableVnd: number;
  /** What the closed quotes received in time, confirmed or not: a new quote asks for amountVnd less this. */
  receivedVnd: number;
  /** What each quote must have asked for: the order's amount less what the quotes before it received in time. */
  quotedVnd: number[];
}

// ---- Arithmetic: VND at a quote's rate, and what counts as full payment.

/** VND worth of `atomic` at the quote's rate, rounded up: "even one atomic unit is worth at least 1 VND". */
export function worthUp(atomic: bigint, rate: string, decimals: number): bigint {
  const [whole, fraction = ''] = rate.split('.');
  const numerator = atomic * BigInt(whole! + fraction);
  const denominator = 10n ** BigInt(decimals + fraction.length);
  return (numerator + denominator - 1n) / denominator;
}

/** Full payment: at least the quote less the tolerance (received ≥ amount × (1 − 0.5%), exactly). */
export const isFull = (q: Quote, atomic: bigint): boolean => atomic * 10_000n >= q.amountAtomic * (10_000n - TOLERANCE_BPS);

/**
 * What money seen in time credits the order (lifecycle, "Credit across quotes"): a full payment its quote's whole
 * amount_vnd; a partial one its worth rounded up, at least 1 VND, at most amount_vnd less 1 "while incomplete".
 */
function credit(q: Quote, atomic: bigint): bigint {
  if (isFull(q, atomic)) return BigInt(q.amountVnd);
  const worth = worthUp(atomic, q.rate, q.decimals);
  return worth < BigInt(q.amountVnd) - 1n ? worth : BigInt(q.amountVnd) - 1n;
}

/**
 * What confirmed money is worth to the order (lifecycle, "What is held"): a full payment its quote's amount_vnd plus an
 * excess of a step or more at the rate (the quote's rounding and the tolerance are the customer's); a partial one its
 * worth rounded up.
 */
function worth(q: Quote, atomic: bigint): bigint {
  if (!isFull(q, atomic)) return worthUp(atomic, q.rate, q.decimals);
  const excess = atomic - q.amountAtomic;
  return BigInt(q.amountVnd) + (excess >= q.step ? worthUp(excess, q.rate, q.decimals) : 0n);
}

// ---- The facts of one quote, judged.

interface Judged {
  q: Quote;
  /** The quote's window closes at the first of: its end, the link's end, the next quote, a newer link (DESIGN §4). */
  closesAt: number;
  /** Money seen before the window closed ("a money fact at the very instant a quote closed counts as late"). */
  inTime: readonly SentMoney[];
  /** Seen in time in full; everything confirmed; when everything confirmed came to the full amount. */
  fullInTime: boolean;
  confirmed: bigint;
  received: bigint;
  fullyConfirmedAt: number | null;
}

const isConfirmed = (q: Quote, t: SentMoney) => t.confirmations >= CONFIRMATIONS[q.network]!;
/** A transfer's confirmation instant; `now` if the count says confirmed before the instant was recorded. */
const confirmedAt = (t: SentMoney, now: number) => t.confirmedAt ?? now;
const total = (items: readonly SentMoney[]) => items.reduce((sum, t) => sum + t.amount, 0n);

function judge(order: Order, q: Quote, next: Quote | undefined, now: number): Judged {
  const closesAt = Math.min(q.endsAt, order.expiresAt, next?.openedAt ?? Infinity, order.replacedAt ?? Infinity);
  const inTime = q.sent.filter((t) => t.seenAt < closesAt);
  const confirmed = q.sent.filter((t) => isConfirmed(q, t)).sort((a, b) => confirmedAt(a, now) - confirmedAt(b, now));
  let running = 0n;
  let fullyConfirmedAt: number | null = null;
  for (const t of confirmed) {
    running += t.amount;
    if (isFull(q, running)) {
      fullyConfirmedAt = confirmedAt(t, now);
      break;
    }
  }
  return { q, closesAt, inTime, fullInTime: isFull(q, total(inTime)), confirmed: total(confirmed), received: total(q.sent), fullyConfirmedAt };
}

/** A quote's credit from its in-time money confirmed by `at`. */
const creditBy = (j: Judged, at: number, now: number) => credit(j.q, total(j.inTime.filter((t) => isConfirmed(j.q, t) && confirmedAt(t, now) <= at)));

// ---- Who paid the link, and when.

interface Payer {
  index: number;
  at: number;
  accepted: boolean;
}

/**
 * The link is paid once (lifecycle, "paid" and "Credit across quotes"), at the first of:
 * - the first instant the confirmed in-time credits of its payments reach its amount, before a newer link replaced it;
 *   paid by the payment for the rest: the newest whose credit counted;
 * - the merchant's acceptance of a payment confirmed in full (counted from when both are true).
 * At a tie, the credit (the acceptance could only follow it).
 */
function payer(order: Order, judged: readonly Judged[], now: number): Payer | null {
  let best: Payer | null = null;
  const instants = judged.flatMap((j) => j.inTime.filter((t) => isConfirmed(j.q, t)).map((t) => confirmedAt(t, now)));
  for (const at of [...new Set(instants)].sort((a, b) => a - b)) {
    if (order.replacedAt !== null && at >= order.replacedAt) break;
    const credits = judged.map((j) => creditBy(j, at, now));
    if (credits.reduce((a, b) => a + b, 0n) >= BigInt(order.amountVnd)) {
      best = { index: credits.findLastIndex((c) => c > 0n), at, accepted: false };
      break;
    }
  }
  judged.forEach((j, index) => {
    if (j.q.acceptedAt === null || j.fullyConfirmedAt === null) return;
    const at = Math.max(j.q.acceptedAt, j.fullyConfirmedAt);
    if (!best || at < best.at) best = { index, at, accepted: true };
  });
  return best;
}

// ---- The status table: the first row that holds decides.

interface Situation {
  j: Judged;
  index: number;
  paid: Payer | null;
  replaced: boolean;
  /** What the in-time money of all the link's quotes covers, confirmed or not. */
  coveredVnd: bigint;
  amountVnd: bigint;
  linkOver: boolean;
  now: number;
}

const STATUS_TABLE: readonly { status: PaymentStatus; when: (s: Situation) => boolean; rule: string }[] = [
  { status: 'paid', when: (s) => s.paid?.index === s.index, rule: 'it completed the order, or the merchant accepted it' },
  { status: 'paid_late', when: (s) => s.paid !== null && s.j.fullyConfirmedAt !== null, rule: 'confirmed in full, but another payment paid the link first' },
  { status: 'expired', when: (s) => s.paid !== null, rule: 'another payment paid the link' },
  {
    status: 'confirming',
    // "A later transfer … mined first does not end the wait": the money it was quoted for must be confirmed.
    when: (s) => !s.replaced && s.j.fullInTime && (!isFull(s.j.q, confirmedInTime(s.j)) || s.coveredVnd >= s.amountVnd),
    rule: 'the full amount was seen in time; it (or the rest of the order seen in time) waits for confirmations',
  },
  {
    status: 'paid_late',
    when: (s) => !s.replaced && s.j.fullInTime && s.linkOver,
    rule: 'full and confirmed in time, but earlier credit left the chain and the link ran out: held',
  },
  {
    status: 'expired',
    when: (s) => !s.replaced && s.j.fullInTime,
    rule: 'full and confirmed in time, but earlier credit left the chain: its credit stays, a new quote asks for the rest',
  },
  { status: 'paid_late', when: (s) => s.j.fullyConfirmedAt !== null, rule: 'the full amount arrived after its quote closed and is confirmed: held' },
  { status: 'expired', when: (s) => s.now >= s.j.closesAt, rule: 'its quote closed before the full amount arrived in time' },
  { status: 'underpaid', when: (s) => s.j.confirmed > 0n, rule: 'a confirmed amount below what is due, quote open' },
  { status: 'awaiting_payment', when: () => true, rule: 'quote open, nothing confirmed' },
];

const confirmedInTime = (j: Judged) => total(j.inTime.filter((t) => isConfirmed(j.q, t)));

/** While its quote is open the money is the customer's to complete: the order holds none of it yet. */
const OPEN: readonly PaymentStatus[] = ['awaiting_payment', 'underpaid', 'confirming'];

export function expectedLink(order: Order, now: number): ExpectedLink {
  const judged = order.quotes.map((q, i) => judge(order, q, order.quotes[i + 1], now));
  const paid = payer(order, judged, now);
  const replaced = order.replacedAt !== null;
  const linkOver = now >= order.expiresAt || replaced;
  const coveredVnd = judged.reduce((sum, j) => sum + credit(j.q, total(j.inTime)), 0n);
  const rows = judged.map((j, index) => STATUS_TABLE.find((row) => row.when({ j, index, paid, replaced, coveredVnd, amountVnd: BigInt(order.amountVnd), linkOver, now }))!);
  const statuses = rows.map((row) => row.status);
  const open = (i: number) => OPEN.includes(statuses[i]!);
  const value = judged.map((j, i) => (open(i) ? 0n : worth(j.q, j.confirmed)));

  // Credits. A paid link's credits add up to its amount, none twice: an accepted payment's whole amount_vnd first (the
  // merchant took that money), else the others' in-time credits oldest first and the paying one what they leave. An
  // unpaid link's credits wait while it can still be paid (active, or a payment confirming); once it ran out, held.
  const credits = judged.map(() => 0n);
  if (paid) {
    let left = BigInt(order.amountVnd);
    const take = (i: number, available: bigint) => {
      credits[i] = available < left ? available : left;
      left -= credits[i]!;
    };
    if (paid.accepted) take(paid.index, BigInt(judged[paid.index]!.q.amountVnd));
    judged.forEach((j, i) => i !== paid.index && take(i, creditBy(j, Infinity, now)));
    if (!paid.accepted) take(paid.index, creditBy(judged[paid.index]!, Infinity, now));
  } else if (!replaced && (!linkOver || statuses.includes('confirming'))) {
    judged.forEach((j, i) => (credits[i] = open(i) ? 0n : creditBy(j, Infinity, now)));
  }

  const payments = judged.map((j, i): ExpectedPayment => {
    const status = statuses[i]!;
    const held = value[i]! - credits[i]!;
    // Everything the order holds through a payment is returnable once the link is paid; before, only what is held.
    const returnable = paid ? value[i]! : held;
    return {
      status,
      overpaid: (status === 'paid' || status === 'paid_late') && j.received - j.q.amountAtomic >= j.q.step,
      creditedVnd: Number(credits[i]),
      heldVnd: Number(held),
      refundableVnd: Number(returnable) - j.q.refundedVnd,
      paidAt: status === 'paid' ? paid!.at : status === 'paid_late' ? j.fullyConfirmedAt : null,
      rule: rows[i]!.rule,
    };
  });
  // A payment's refunds sent before a reorganisation took its money back may exceed it: that is not the others' to give.
  const refundable = payments.reduce((sum, p) => sum + Math.max(0, p.refundableVnd), 0);
  return {
    status: paid ? 'paid' : linkOver ? 'expired' : 'active',
    paidBy: paid?.index ?? null,
    paidAt: paid?.at ?? null,
    payments,
    refundableVnd: refundable,
    receivedVnd: Number(judged.reduce((sum, j, i) => (open(i) ? sum : sum + credit(j.q, total(j.inTime))), 0n)),
    // All of an earlier quote's in-time money was seen before its window closed, so before the next quote opened.
    quotedVnd: judged.map((_, k) => order.amountVnd - Number(judged.slice(0, k).reduce((sum, j) => sum + credit(j.q, total(j.inTime)), 0n))),
  };
}
