-- A merchant the operator disabled (storage/merchants.ts, disableMerchant): from then on its tokens and sessions end,
-- its credentials get no token and its links open no payment, while money reaching its addresses is still followed.
-- IF NOT EXISTS: the operator's command may have added the same column in a migration of its own.
ALTER TABLE merchants ADD COLUMN IF NOT EXISTS disabled_at timestamptz;
