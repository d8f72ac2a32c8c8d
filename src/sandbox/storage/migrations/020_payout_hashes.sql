-- The watcher asks whether a transfer into a payment address is a payout the gateway sent (storage/payouts.ts,
-- payoutsAmong): a simulated chain's payout is known by the refund's transaction alone.
CREATE INDEX refunds_by_payout_transaction ON refunds (psp_refund_id) WHERE psp_refund_id IS NOT NULL;
