-- Merchants from the operator's command (src/sandbox/merchants-command.ts; docs/operations.md, "Merchants").

-- A merchant the operator disabled (storage/merchants.ts, disableMerchant); null while it is enabled.
ALTER TABLE merchants ADD COLUMN disabled_at timestamptz;

-- Each merchant's own receiving keys: per network family, the accounts' extended public keys it was given, the one in
-- use, and each account's next address index, taken in the transaction that opens the payment (the row's lock: two
-- processes never take one index). An account set again goes on from its own index, so none of its addresses comes
-- twice; one account belongs to one merchant. A merchant with none in a family derives from the sandbox seed at the
-- global index (payment_address_index), as before: the sandbox only.
CREATE TABLE merchant_account_keys (
  merchant_id text NOT NULL REFERENCES merchants ON DELETE CASCADE,
  family text NOT NULL,
  -- The account's chain code and public key (hex): the same account however its xpub is written (xpub, tpub, vpub …).
  account_key text NOT NULL,
  account_xpub text NOT NULL,
  next_index bigint NOT NULL DEFAULT 0 CHECK (next_index >= 0 AND next_index <= 2147483648),
  in_use boolean NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (family, account_key)
);
CREATE UNIQUE INDEX merchant_account_keys_in_use ON merchant_account_keys (merchant_id, family) WHERE in_use;

-- Which account a payment's address derived from (null: the sandbox seed or HD_XPUB_*, at the global index): an index
-- is unique within its account now, no longer among all payments.
ALTER TABLE payments ADD COLUMN account_key text;
ALTER TABLE payments DROP CONSTRAINT payments_address_index_key;
CREATE UNIQUE INDEX payments_address_index_global ON payments (address_index) WHERE account_key IS NULL;
CREATE UNIQUE INDEX payments_address_index_per_account ON payments (account_key, address_index) WHERE account_key IS NOT NULL;
