-- Each merchant's own payout wallet (services/orders/payouts.ts, docs/operations.md "Payout wallets"): refunds on a
-- node's network leave the key of PAYOUT_HD_SEED at the merchant's hardened account, m/44'/60'/<payout_account>'/0/0
-- (and each family's coin), never another merchant's. Numbers come from a sequence, so one is never given twice, even
-- to a merchant made after another was deleted.
CREATE SEQUENCE merchant_payout_accounts MINVALUE 0 START 0;
ALTER TABLE merchants ADD COLUMN payout_account integer UNIQUE CHECK (payout_account >= 0);
-- The merchants there are, oldest first, from account 0: the oldest (a sandbox's own merchant) keeps the address of the
-- one hot wallet every merchant shared before, account 0.
UPDATE merchants m SET payout_account = n.account
  FROM (SELECT merchant_id, row_number() OVER (ORDER BY created_at, merchant_id) - 1 AS account FROM merchants) n
  WHERE n.merchant_id = m.merchant_id;
SELECT setval('merchant_payout_accounts', (SELECT count(*) FROM merchants), false);
ALTER TABLE merchants ALTER COLUMN payout_account SET DEFAULT nextval('merchant_payout_accounts');
ALTER TABLE merchants ALTER COLUMN payout_account SET NOT NULL;
ALTER SEQUENCE merchant_payout_accounts OWNED BY merchants.payout_account;

-- Why a payout waits to be signed, when it does: `daily_cap` (the merchant's payouts of the last 24 h and this one
-- would pass PAYOUT_DAILY_CAP_VND; `payout_waiting_until` says when the window allows it) or `wallet_funds` (the
-- merchant's payout wallet holds too little of the coin or of its gas). Null once signed, or never held.
ALTER TABLE refunds ADD COLUMN payout_waiting text CHECK (payout_waiting IN ('daily_cap', 'wallet_funds'));
ALTER TABLE refunds ADD COLUMN payout_waiting_detail text;
ALTER TABLE refunds ADD COLUMN payout_waiting_until timestamptz;

-- The cap sums what a merchant's payouts signed in the last 24 h: each refund's first transaction, by when it was signed.
CREATE INDEX payout_transactions_by_signed_at ON payout_transactions (signed_at);
