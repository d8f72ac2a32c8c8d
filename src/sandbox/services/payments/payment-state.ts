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
  /** The order's amount in VND: what the credit of its payments must cover. */
  amount_vnd: number;
  expires_at: Date;
  /** A newer link for the same order replaced this one (it had expired): the order has moved on. */
  superseded_at: Date | null;
  /**
   * The merchant cancelled the link (before it was paid or any of its payments received money): its quotes closed
   * then, whatever the clock says, and what still arrives is held, as after the link's end.
   */
  cancelled_at: Date | null;
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
  /**
   * The part of value_vnd that counts toward the link: money seen before its quote closed, at its rate (its whole
   * amount_vnd once complete), as far as the link needs it. While the link can still be paid, a closed quote's credit
   * waits for the rest; once the link ran out unpaid, nothing is credited.
   */
  credited_vnd: bigint;
  /** The part of value_vnd the link does not need: value_vnd − credited_vnd. */
  held_vnd: bigint;
  /** What a refund may return: all of value_vnd once the link is paid; only held_vnd while the credit may still pay it. */
  returnable_vnd: bigint;
  /** What the money seen before its quote closed (confirmed or not, so far) covers of the order, in VND. */
  covered_vnd: bigint;
  /** Some of its money is still gaining confirmations: blocks can change it. */
  unsettled: boolean;
}

export interface LinkState {
  status: LinkStatus;
  /**
   * VND of the order covered by money that reached its payments' addresses in time (confirmed or not): a new payment
   * is quoted for the rest.
   */
  covered_vnd: bigint;
  /** The payment that completed the link (the newest whose credit counted when the order was covered), and when. */
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
  /** Money seen before the quote closed with its confirmations, by when it had them. */
  inTime: readonly { amount: bigint; at: number }[];
  /** What the money seen before the quote closed covers, in VND (confirmed or not). */
  covered: bigint;
}

function progress(link: LinkFacts, facts: PaymentFacts, next: PaymentFacts | undefined, toleranceBps: number): Progress {
  const due = dueWithTolerance(facts.amount_atomic, toleranceBps);
  const seen = facts.transfers.map((t) => ({ amount: t.amount, at: t.seen_at.getTime() }));
  const byConfirmation = (transfers: readonly TransferFact[]) =>
    transfers
      .filter((t) => t.confirmed_at !== null)
      .map((t) => ({ amount: t.amount, at: t.confirmed_at!.getTime() }))
      .sort((a, b) => a.at - b.at);
  const confirmed = byConfirmation(facts.transfers);
  const closedAt = Math.min(ms(facts.quote_expires_at), ms(link.expires_at), ms(next?.created_at ?? null), ms(link.superseded_at), ms(link.cancelled_at));
  const inTimeSeen = facts.transfers.filter((t) => t.seen_at.getTime() < closedAt);
  return {
    facts,
    due,
    received: sum(seen),
    confirmed: sum(confirmed),
    completedAt: reachedAt(seen, due),
    settledAt: reachedAt(confirmed, due),
    closedAt,
    replaced: next !== undefined,
    inTime: byConfirmation(inTimeSeen),
    covered: credit(facts, due, sum(inTimeSeen)),
  };
}

/**
 * What `atomic` units seen in time credit the order, at the quote's rate: the quote's whole amount_vnd once they reach
 * what is due (the tolerance and rounding are the customer's), else their worth rounded up, below amount_vnd: only a
 * complete payment covers its own quote (a quote rounded up to a typeable amount is worth a little more than asked).
 */
function credit(facts: PaymentFacts, due: bigint, atomic: bigint): bigint {
  if (atomic >= due) return BigInt(facts.amount_vnd);
  return min(vndForAtomicUp(atomic, facts.rate, facts.decimals), BigInt(facts.amount_vnd) - 1n);
}

/** A payment's credit from its in-time money confirmed by `at`. */
function creditAt(p: Progress, at: number): bigint {
  return credit(p.facts, p.due, sum(p.inTime.filter((t) => t.at <= at)));
}

interface Winner {
  index: number;
  at: number;
  /** The merchant accepted it: its whole amount counts, although it came late. */
  accepted: boolean;
}

/**
 * The link is paid once, at the first of: the instant the confirmed credit of its payments covers the order (before
 * the order moved on to another link; a tie with a quote's closing goes to the closing, which the lock order makes the
 * earlier event), paid by the newest payment whose credit counted; or a merchant's acceptance of a payment that
 * arrived in full and is confirmed.
 */
function winner(link: LinkFacts, all: readonly Progress[]): Winner | undefined {
  let best: Winner | undefined;
  const instants = [...new Set(all.flatMap((p) => p.inTime.map((t) => t.at)))].sort((a, b) => a - b);
  for (const at of instants) {
    if (at >= ms(link.superseded_at)) break;
    const credits = all.map((p) => creditAt(p, at));
    if (credits.reduce((a, b) => a + b, 0n) >= BigInt(link.amount_vnd)) {
      best = { index: credits.findLastIndex((c) => c > 0n), at, accepted: false };
      break;
    }
  }
  all.forEach((p, index) => {
    // The merchant can accept only money that arrived in full and is confirmed.
    const at = p.settledAt === NEVER ? NEVER : Math.max(p.settledAt, ms(p.facts.accepted_at));
    if (at !== NEVER && (!best || at < best.at)) best = { index, at, accepted: true };
  });
  return best;
}

/**
 * What each payment's money credits the paid link: the winner's first (its whole amount if accepted), then the
 * others' oldest first, until the order is covered; none counts twice, and what the order does not need is held.
 */
function creditsOfPaidLink(link: LinkFacts, all: readonly Progress[], won: Winner): bigint[] {
  let left = BigInt(link.amount_vnd);
  const take = (available: bigint) => {
    const taken = min(available, left);
    left -= taken;
    return taken;
  };
  const credits = all.map(() => 0n);
  const w = all[won.index]!;
  credits[won.index] = take(won.accepted ? BigInt(w.facts.amount_vnd) : creditAt(w, NEVER));
  all.forEach((p, i) => {
    if (i !== won.index) credits[i] = take(creditAt(p, NEVER));
  });
  return credits;
}

export function linkState(link: LinkFacts, clock: Date, toleranceBps: number): LinkState {
  const now = link.known_until && link.known_until < clock ? link.known_until : clock;
  const all = link.payments.map((facts, i) => progress(link, facts, link.payments[i + 1], toleranceBps));
  const won = winner(link, all);
  const covered_vnd = all.reduce((total, p) => total + p.covered, 0n);
  // A cancel is the merchant's decision, not an instant of the clock: it holds also while the clock stands behind it.
  const cancelled = link.cancelled_at !== null && link.cancelled_at < link.expires_at;
  const linkOver = now.getTime() >= link.expires_at.getTime() || link.superseded_at !== null || cancelled;
  const statuses = all.map((p, index): PaymentStatus => {
    const isWinner = won?.index === index;
    // Once another payment paid the link, this quote takes nothing more for it.
    const closedAt = won && !isWinner ? Math.min(p.closedAt, won.at) : p.closedAt;
    if (isWinner) return 'paid';
    if (p.completedAt < closedAt && !won && link.superseded_at === null) {
      // Complete in time, waiting for its confirmations or for the credit of earlier payments. If what reached the
      // link's addresses in time can no longer cover the order (earlier money left the chain), its own credit stays
      // and a new quote asks for the rest; once the link ran out, it is held.
      if (p.settledAt === NEVER || covered_vnd >= BigInt(link.amount_vnd)) return 'confirming';
      return linkOver ? 'paid_late' : 'expired';
    }
    if (p.settledAt !== NEVER) return 'paid_late';
    if (p.completedAt !== NEVER || p.replaced || cancelled || now.getTime() >= closedAt) return 'expired';
    return p.confirmed > 0n ? 'underpaid' : 'awaiting_payment';
  });
  // Until the link is paid, a closed quote's credit waits for the rest while the link can still be paid.
  const payable = !won && !linkOver;
  const payableLate = !won && link.superseded_at === null && statuses.includes('confirming');
  const credits = won ? creditsOfPaidLink(link, all, won) : all.map((p) => (payable || payableLate ? creditAt(p, NEVER) : 0n));
  const payments = all.map((p, index): PaymentState => {
    const { facts, due, received, confirmed } = p;
    const status = statuses[index]!;
    const complete = p.completedAt !== NEVER;
    const overpaid = (status === 'paid' || status === 'paid_late') && received - facts.amount_atomic >= facts.quote_step;
    const remaining = complete ? 0n : roundUp(facts.amount_atomic - received, facts.quote_step);
    const remaining_vnd = complete ? 0n : min(BigInt(facts.amount_vnd), vndForAtomicUp(remaining, facts.rate, facts.decimals));
    const open = isIn(OPEN_PAYMENT_STATUSES, status);
    const value_vnd = open ? 0n : worth(facts, due, confirmed);
    const credited_vnd = open ? 0n : credits[index]!;
    const held_vnd = value_vnd - credited_vnd;
    const paidAt = won?.index === index ? won.at : status === 'paid_late' ? p.settledAt : NEVER;
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
      credited_vnd,
      held_vnd,
      returnable_vnd: won ? value_vnd : held_vnd,
      covered_vnd: p.covered,
      unsettled: facts.transfers.some((t) => t.confirmed_at === null),
    };
  });
  return {
    status: won ? 'paid' : cancelled ? 'cancelled' : linkOver ? 'expired' : 'active',
    covered_vnd,
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
  consider(link.cancelled_at);
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
const sum = (items: readonly { amount: bigint }[]): bigint => items.reduce((total, t) => total + t.amount, 0n);
