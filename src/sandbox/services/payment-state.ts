// The payment state machine (DESIGN.md section 4), as one pure function of what the chain shows and the time.
// The watcher calls it inside a transaction; nothing else decides a payment's status.
import type { PaymentStatus } from '../../contract/index.js';

export interface ObservedTransfer {
  amount: bigint;
  confirmations: number;
  /** When the gateway first saw it (broadcast), which decides whether it came in time. */
  seen_at: Date;
}

export interface PaymentFacts {
  status: PaymentStatus;
  amount_atomic: bigint;
  quote_expires_at: Date;
  confirmations_required: number;
  /** In the order they were seen. */
  transfers: readonly ObservedTransfer[];
}

export interface PaymentState {
  status: PaymentStatus;
  overpaid: boolean;
  received: bigint;
  remaining: bigint;
}

/** The smallest total that counts as full payment: the tolerance absorbs exchange withdrawal fees. */
export function dueWithTolerance(amount: bigint, toleranceBps: number): bigint {
  return amount - (amount * BigInt(toleranceBps)) / 10_000n;
}

export function paymentState(facts: PaymentFacts, now: Date, toleranceBps: number): PaymentState {
  const due = dueWithTolerance(facts.amount_atomic, toleranceBps);
  let received = 0n;
  let confirmed = 0n;
  let completedAt: Date | undefined;
  for (const transfer of facts.transfers) {
    received += transfer.amount;
    if (transfer.confirmations >= facts.confirmations_required) confirmed += transfer.amount;
    if (!completedAt && received >= due) completedAt = transfer.seen_at;
  }
  const remaining = completedAt ? 0n : facts.amount_atomic - received;
  const overpaid = received > facts.amount_atomic;

  // Paid is final: later transfers only raise the overpaid flag.
  if (facts.status === 'paid' || facts.status === 'paid_late') return { status: facts.status, overpaid, received, remaining };
  if (completedAt) {
    const inTime = completedAt.getTime() <= facts.quote_expires_at.getTime();
    const settled = confirmed >= due;
    // A full payment that came after the quote ran out waits, still expired, for its confirmations; then it is held for the merchant.
    const status: PaymentStatus = inTime ? (settled ? 'paid' : 'confirming') : settled ? 'paid_late' : 'expired';
    return { status, overpaid: overpaid && (status === 'paid' || status === 'paid_late'), received, remaining };
  }
  if (now.getTime() >= facts.quote_expires_at.getTime()) return { status: 'expired', overpaid: false, received, remaining };
  return { status: confirmed > 0n ? 'underpaid' : 'awaiting_payment', overpaid: false, received, remaining };
}
