-- Every attempt of a delivery, as the merchant's portal shows it: when, how long, the receiver's status and the start
-- of its answer (as text), or why nothing answered. A test event ("Send a test event") is about no payment link.

CREATE TABLE webhook_attempts (
  attempt_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  -- The first 4 KiB of the answer (WEBHOOK_RESPONSE_BODY_BYTES), decoded as UTF-8.
  response_body text,
  response_truncated boolean NOT NULL DEFAULT false,
  error text CHECK (error IN ('timeout', 'unresolved', 'refused_address', 'connection_failed', 'tls'))
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, attempt_id);

ALTER TABLE webhook_events ALTER COLUMN payment_link_ref DROP NOT NULL;
