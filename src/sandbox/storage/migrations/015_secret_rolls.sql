-- Rolling a merchant's client secret (services/merchant/merchants.ts). Each change of the secret counts the
-- generation up; a token carries the generation whose secret issued it, and works only while that secret does: the
-- current one, or the previous one until its grace ends. The previous secret is kept as the current one is: hashed
-- for the token endpoint, sealed for the signatures of links made during the grace.
ALTER TABLE merchants
  ADD COLUMN secret_generation integer NOT NULL DEFAULT 1,
  ADD COLUMN previous_secret_hash text,
  ADD COLUMN previous_secret_sealed text,
  ADD COLUMN previous_secret_expires_at timestamptz;

ALTER TABLE access_tokens ADD COLUMN secret_generation integer NOT NULL DEFAULT 1;
