-- Refunds that reach the customer (docs/payment-lifecycle.md, "Refunds"): a refund waits PENDING for the customer to
-- claim it with an address of their own (or goes to the address that paid, when the merchant says so), is paid out on
-- chain, and ends SUCCESS once its payout is confirmed, or FAILED with why.

-- How a refund's coins were worked out, kept as they were: the payment's confirmed coins and what they were worth to
-- the order (the refund sends the same share of the coins as its VND is of that worth).
ALTER TABLE refunds ADD COLUMN basis_atomic numeric(78, 0);
ALTER TABLE refunds ADD COLUMN basis_vnd bigint;
UPDATE refunds SET basis_atomic = amount_atomic, basis_vnd = amount WHERE amount_atomic IS NOT NULL;
-- Where the coins go: 'claim' (the customer gives the address through claim_token's page) or 'payer' (the address
-- that paid, chosen by the merchant). Refunds before this migration went to the payer.
ALTER TABLE refunds ADD COLUMN send_to text NOT NULL DEFAULT 'payer' CHECK (send_to IN ('claim', 'payer'));
ALTER TABLE refunds ALTER COLUMN send_to DROP DEFAULT;
-- The claim link's bearer secret, as a link's ref is; null for a refund sent to the payer.
ALTER TABLE refunds ADD COLUMN claim_token text UNIQUE;
ALTER TABLE refunds ADD COLUMN claim_expires_at timestamptz;
-- The address the payout goes to, once known.
ALTER TABLE refunds ADD COLUMN destination text;
ALTER TABLE refunds ADD COLUMN failure_reason text;
-- A refund made again after this one failed.
ALTER TABLE refunds ADD COLUMN retry_of text REFERENCES refunds;
UPDATE refunds r SET destination = t.to_address FROM sim_transactions t WHERE t.tx_hash = r.psp_refund_id;

-- What happened to each refund, in order: the merchant's history of it.
CREATE TABLE refund_events (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  refund_id text NOT NULL REFERENCES refunds ON DELETE CASCADE,
  event text NOT NULL CHECK (event IN ('requested', 'claimed', 'sent', 'confirmed', 'failed')),
  at timestamptz NOT NULL,
  detail text
);
CREATE INDEX refund_events_by_refund ON refund_events (refund_id, seq);
INSERT INTO refund_events (refund_id, event, at) SELECT refund_id, 'requested', created_at FROM refunds ORDER BY seq;
INSERT INTO refund_events (refund_id, event, at, detail)
  SELECT refund_id, CASE refund_status WHEN 'SUCCESS' THEN 'confirmed' ELSE 'failed' END, created_at, psp_refund_id
  FROM refunds WHERE refund_status <> 'PENDING' ORDER BY seq;

-- Refunds still under way: claims that may run out, payouts to follow.
CREATE INDEX refunds_pending ON refunds (claim_expires_at) WHERE refund_status = 'PENDING';
