// The payment state machine: one pure function from the facts of a link (its payments, what the chain shows at their
// addresses, when quotes closed, what the merchant decided) and the time, to the status of the link and of every
// payment. docs/payment-lifecycle.md draws it. The reconciler calls it inside a transaction; nothing else decides a
// status, so a status can always be re-derived: after a restart, after any number of blocks, on the timer.
import { isIn, OPEN_PAYMENT_STATUSES, type LinkStatus, type PaymentStatus } from '../../../contract/index.js';
import { roundUp, vndForAtomicUp } from '../../../codecs/amounts.js';

export interface TransferFact {
  amount: bigint;
  /** When the gateway first saw it: whether it came in time is decided by this. */
  seen_at: Date;
  /** When it reached the payment's required confirmations; null before. */
  confirmed_at: Date | null;
}

export interface PaymentFacts {
  payment_id: string;
  /** What the quote asks for, in atomic units. */
  amount_atomic: bigint;
  /** Atomic units in one step of the quote's precision: a difference below it is rounding, never overpayment. */
  quote_step: bigint;
  amount_vnd: number;
  /** VND per unit, locked for this quote, and the asset's decimals: what held money is worth. */
  rate: string;
  decimals: number;
  quote_expires_at: Date;
  created_at: Date;
  /** The merchant accepted this payment although it came too late. */
  accepted_at: Date | null;
  /** In the order they were seen. */
  transfers: readonly TransferFact[];
}

export interface LinkFacts {
  expires_at: Date;
  /** A newer link for the same order replaced this one (it had expired): the order has moved on. */
  superseded_at: Date | null;
  /** Oldest first: a newer payment (the customer switched asset or asked for a new quote) closes the quotes before it. */
  payments: readonly PaymentFacts[];
  /**
   * While a network of its payments cannot be seen (a node unreachable or behind): until when it was seen in full.
   * The link's clock stops there: nothing runs out for want of facts the gateway could not see, and money found later
   * is judged by when it was sent.
   */
  known_until: Date | null;
}

export interface PaymentState {
  status: PaymentStatus;
  overpaid: boolean;
  /** Everything seen at the address, and the part of it with its confirmations. */
  received: bigint;
  confirmed: bigint;
  /** Still to send, rounded up to the quote's precision; 0 once complete. */
  remaining: bigint;
  remaining_vnd: bigint;
  /** When it became paid or paid_late. */
  paid_at: Date | null;
  /** When a newer payment of the link closed this quote; null for the newest. */
  superseded_at: Date | null;
  /** VND of confirmed money the order holds through this payment, once its quote is over (0 while it is open). */
  value_vnd: bigint;
  /** The part of value_vnd the link does not need: all of it unless this payment paid the link, else the excess. */
  held_vnd: bigint;
  /** Some of its money is still gaining confirmations: blocks can change it. */
  unsettled: boolean;
}

export interface LinkState {
  status: LinkStatus;
  /** The one payment that paid the link, and when. */
  paid_by: string | null;
  paid_at: Date | null;
  payments: PaymentState[];
  /**
   * Until this instant (ms since the epoch; Infinity for never) the clock alone cannot change any of it: the next of
   * the facts' instants after now. The state is read again only when the facts change or this instant has come.
   */
  stable_until: number;
}

/** The smallest total that counts as full payment: the tolerance absorbs exchange withdrawal fees. */
export function dueWithTolerance(amount: bigint, toleranceBps: number): bigint {
  return amount - (amount * BigInt(toleranceBps)) / 10_000n;
}

const NEVER = Number.POSITIVE_INFINITY;
const ms = (date: Date | null): number => date?.getTime() ?? NEVER;

/** When the running total of `amounts` (ordered by `at`) first reaches `target`; NEVER if it does not. */
function reachedAt(items: readonly { amount: bigint; at: number }[], target: bigint): number {
  let total = 0n;
  for (const { amount, at } of items) {
    total += amount;
    if (total >= target) return at;
  }
  return NEVER;
}

interface Progress {
  facts: PaymentFacts;
  due: bigint;
  received: bigint;
  confirmed: bigint;
  /** When enough was seen, and when enough had its confirmations. */
  completedAt: number;
  settledAt: number;
  /** When this quote stopped taking money for the link: money seen at that instant or later is late. */
  closedAt: number;
  /** A newer payment exists: this quote is closed, whatever the clock says. */
  replaced: boolean;
}

function progress(link: LinkFacts, facts: PaymentFacts, next: PaymentFacts | undefined, toleranceBps: number): Progress {
  const due = dueWithTolerance(facts.amount_atomic, toleranceBps);
  const seen = facts.transfers.map((t) => ({ amount: t.amount, at: t.seen_at.getTime() }));
  const confirmed = facts.transfers
    .filter((t) => t.confirmed_at !== null)
    .map((t) => ({ amount: t.amount, at: t.confirmed_at!.getTime() }))
    .sort((a, b) => a.at - b.at);
  return {
    facts,
    due,
    received: seen.reduce((sum, t) => sum + t.amount, 0n),
    confirmed: confirmed.reduce((sum, t) => sum + t.amount, 0n),
    completedAt: reachedAt(seen, due),
    settledAt: reachedAt(confirmed, due),
    closedAt: Math.min(ms(facts.quote_expires_at), ms(link.expires_at), ms(next?.created_at ?? null), ms(link.superseded_at)),
    replaced: next !== undefined,
  };
}

/**
 * The link is paid by exactly one payment: the first to be settled in time (its full amount seen before its quote
 * closed, and confirmed before the order moved on to another link; a tie goes to the closing, which the lock order
 * makes the earlier event) or accepted by the merchant. Every other coin
 * that reached an address of the link is held.
 */
function winner(link: LinkFacts, all: readonly Progress[]): { index: number; at: number } | undefined {
  let best: { index: number; at: number } | undefined;
  all.forEach((p, index) => {
    const settledInTime = p.completedAt < p.closedAt && p.settledAt < ms(link.superseded_at) ? p.settledAt : NEVER;
    // The merchant can accept only money that arrived in full and is confirmed.
    const accepted = p.settledAt === NEVER ? NEVER : Math.max(p.settledAt, ms(p.facts.accepted_at));
    const at = Math.min(settledInTime, accepted);
    if (at !== NEVER && (!best || at < best.at)) best = { index, at };
  });
  return best;
}

export function linkState(link: LinkFacts, clock: Date, toleranceBps: number): LinkState {
  const now = link.known_until && link.known_until < clock ? link.known_until : clock;
  const all = link.payments.map((facts, i) => progress(link, facts, link.payments[i + 1], toleranceBps));
  const won = winner(link, all);
  const payments = all.map((p, index): PaymentState => {
    const { facts, due, received, confirmed } = p;
    const isWinner = won?.index === index;
    // Once another payment paid the link, this quote takes nothing more for it.
    const closedAt = won && !isWinner ? Math.min(p.closedAt, won.at) : p.closedAt;
    const complete = p.completedAt !== NEVER;
    let status: PaymentStatus;
    if (isWinner) status = 'paid';
    else if (p.settledAt !== NEVER) status = 'paid_late';
    else if (complete) status = p.completedAt < closedAt && !won && link.superseded_at === null ? 'confirming' : 'expired';
    else if (p.replaced || now.getTime() >= closedAt) status = 'expired';
    else status = confirmed > 0n ? 'underpaid' : 'awaiting_payment';

    const overpaid = (status === 'paid' || status === 'paid_late') && received - facts.amount_atomic >= facts.quote_step;
    const remaining = complete ? 0n : roundUp(facts.amount_atomic - received, facts.quote_step);
    const remaining_vnd = complete ? 0n : min(BigInt(facts.amount_vnd), vndForAtomicUp(remaining, facts.rate, facts.decimals));
    const open = isIn(OPEN_PAYMENT_STATUSES, status);
    const value_vnd = open ? 0n : worth(facts, due, confirmed);
    const held_vnd = isWinner ? value_vnd - BigInt(facts.amount_vnd) : value_vnd;
    const paidAt = isWinner ? won.at : status === 'paid_late' ? p.settledAt : NEVER;
    return {
      status,
      overpaid,
      received,
      confirmed,
      remaining,
      remaining_vnd,
      paid_at: paidAt === NEVER ? null : new Date(paidAt),
      superseded_at: link.payments[index + 1]?.created_at ?? null,
      value_vnd,
      held_vnd,
      unsettled: facts.transfers.some((t) => t.confirmed_at === null),
    };
  });
  const expired = now.getTime() >= link.expires_at.getTime() || link.superseded_at !== null;
  return {
    status: won ? 'paid' : expired ? 'expired' : 'active',
    paid_by: won ? link.payments[won.index]!.payment_id : null,
    paid_at: won ? new Date(won.at) : null,
    payments,
    // Behind the clock, the state moves only with the facts.
    stable_until: now === clock ? nextInstant(link, now.getTime()) : NEVER,
  };
}

/** The first of the facts' instants after `now`: every instant the state compares the clock with is one of them. */
function nextInstant(link: LinkFacts, now: number): number {
  let next = NEVER;
  const consider = (date: Date | null) => {
    const at = ms(date);
    if (at > now && at < next) next = at;
  };
  consider(link.expires_at);
  consider(link.superseded_at);
  for (const p of link.payments) {
    consider(p.quote_expires_at);
    consider(p.created_at);
    consider(p.accepted_at);
    for (const t of p.transfers) {
      consider(t.seen_at);
      consider(t.confirmed_at);
    }
  }
  return next;
}

/**
 * What confirmed money at a payment's address is worth to the order, at the quote's locked rate: the link's amount
 * for a full payment (the tolerance and the quote's rounding are the customer's, not extra), plus any excess of a
 * step or more; a partial payment at its worth rounded up, so every atomic unit is worth at least 1 VND and can be
 * sent back.
 */
function worth(facts: PaymentFacts, due: bigint, confirmed: bigint): bigint {
  if (confirmed < due) return vndForAtomicUp(confirmed, facts.rate, facts.decimals);
  const excess = confirmed - facts.amount_atomic;
  return BigInt(facts.amount_vnd) + (excess >= facts.quote_step ? vndForAtomicUp(excess, facts.rate, facts.decimals) : 0n);
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
