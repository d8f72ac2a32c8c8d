-- Payment truth: statuses re-derived from facts (src/sandbox/services/payment-state.ts), so the facts they come from
-- are kept: what the merchant decided, when an order moved on to a newer link.

-- The merchant accepted this held payment: it pays the link.
ALTER TABLE payments ADD COLUMN accepted_at timestamptz;
-- VND of confirmed money here that the link does not need (all of a payment that did not pay it, the excess of one that did).
ALTER TABLE payments ADD COLUMN held_vnd bigint NOT NULL DEFAULT 0;
-- Money here is still gaining confirmations, or the quote is open: blocks, transfers and time can still change it.
-- A transfer sets it in its own transaction, so a gateway that dies before reconciling finds the payment on start.
ALTER TABLE payments ADD COLUMN unsettled boolean NOT NULL DEFAULT true;
CREATE INDEX payments_unsettled ON payments (network, payment_link_ref) WHERE unsettled;

-- A newer link for the same order replaced this expired one.
ALTER TABLE payment_links ADD COLUMN superseded_at timestamptz;
-- Every link of an order, also paid and expired ones: refunds and accepts read them all.
CREATE INDEX payment_links_by_order ON payment_links (merchant_id, merchant_order_id, payment_link_ref);

-- The payment whose money a refund sent back; before this migration every refund was of the link's paid payment.
ALTER TABLE refunds ADD COLUMN payment_id text REFERENCES payments ON DELETE CASCADE;
UPDATE refunds r SET payment_id = (SELECT p.payment_id FROM payments p WHERE p.payment_link_ref = r.payment_link_ref AND p.status = 'paid' LIMIT 1);
CREATE INDEX refunds_by_payment ON refunds (payment_id);

-- While a payment is open, the link has no other: checked at commit, so one transaction can open a new payment and
-- close the last one's quote (a newer payment closes it).
DROP INDEX payments_one_open_per_link;
ALTER TABLE payments ADD CONSTRAINT payments_one_open_per_link EXCLUDE USING btree (payment_link_ref WITH =)
  WHERE (status IN ('awaiting_payment', 'confirming', 'underpaid')) DEFERRABLE INITIALLY DEFERRED;

-- Replaced by payments_unsettled: blocks reconcile by state, not by a window of recent heights.
DROP INDEX payments_open_by_network;
DROP INDEX chain_transactions_by_block;
