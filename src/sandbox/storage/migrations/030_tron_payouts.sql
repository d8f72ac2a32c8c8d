-- Payouts on TRON (services/orders/payouts.ts, chains/tron/node-chain.ts): a TRC-20 transfer has no nonce, gas or
-- EIP-1559 fees. It expires instead (the chain's time after which no block can hold it: only then is a refund given a
-- new one) and carries a fee_limit, the most TRX in sun it may burn. A row is one family's or the other's, whole.
ALTER TABLE payout_transactions
  ALTER COLUMN gas DROP NOT NULL,
  ALTER COLUMN max_fee_per_gas DROP NOT NULL,
  ALTER COLUMN max_priority_fee_per_gas DROP NOT NULL,
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN fee_limit numeric(78, 0),
  ADD CONSTRAINT payout_transactions_terms CHECK (
    (gas IS NOT NULL AND max_fee_per_gas IS NOT NULL AND max_priority_fee_per_gas IS NOT NULL AND expires_at IS NULL AND fee_limit IS NULL)
    OR (gas IS NULL AND max_fee_per_gas IS NULL AND max_priority_fee_per_gas IS NULL AND expires_at IS NOT NULL AND fee_limit IS NOT NULL)
  );
