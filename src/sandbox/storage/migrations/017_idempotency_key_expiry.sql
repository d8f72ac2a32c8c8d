-- Idempotency-Keys live for a day (IDEMPOTENCY_KEY_TTL_SECONDS): a key older than that is new again, and old keys are
-- deleted in batches, oldest first (services/merchant/idempotency.ts), which this index finds without a scan.
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
