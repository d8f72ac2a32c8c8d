-- Payouts on a node's network (services/orders/payouts.ts): refunds sent from the gateway's hot wallet, one signed
-- transaction at a time, each written down before it is broadcast.

-- Each hot wallet's next nonce: the row is locked while a payout takes one, so processes sharing the database never
-- give one nonce to two payouts.
CREATE TABLE payout_wallets (
  network text NOT NULL,
  address text NOT NULL,
  next_nonce bigint NOT NULL,
  PRIMARY KEY (network, address)
);

-- The nonce of each refund's payout: one refund per nonce and one nonce per refund, so however often a payout is
-- signed again (a higher fee, a crash), at most one of its transactions can be mined, and it pays that refund alone.
CREATE TABLE payout_nonces (
  network text NOT NULL,
  address text NOT NULL,
  nonce bigint NOT NULL,
  refund_id text NOT NULL UNIQUE REFERENCES refunds ON DELETE CASCADE,
  PRIMARY KEY (network, address, nonce)
);

-- Every transaction signed for a payout: the first, and each replacement with a higher fee (same nonce).
CREATE TABLE payout_transactions (
  tx_hash text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  refund_id text NOT NULL REFERENCES refunds ON DELETE CASCADE,
  raw text NOT NULL,
  gas numeric(78, 0) NOT NULL,
  max_fee_per_gas numeric(78, 0) NOT NULL,
  max_priority_fee_per_gas numeric(78, 0) NOT NULL,
  signed_at timestamptz NOT NULL
);
CREATE INDEX payout_transactions_by_refund ON payout_transactions (refund_id, seq);
