-- Webhooks with a transactional outbox: an event is written in the transaction of the change that causes it,
-- with one delivery per endpoint; a worker sends them with retries, several processes sharing the work.

CREATE TABLE webhook_endpoints (
  endpoint_id text PRIMARY KEY,
  merchant_id text NOT NULL REFERENCES merchants ON DELETE CASCADE,
  url text NOT NULL,
  -- Signing needs the key itself, so it is sealed, not hashed.
  secret_sealed text NOT NULL,
  created_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX webhook_endpoints_by_merchant ON webhook_endpoints (merchant_id) WHERE deleted_at IS NULL;

CREATE TABLE webhook_events (
  event_id text PRIMARY KEY,
  merchant_id text NOT NULL REFERENCES merchants ON DELETE CASCADE,
  type text NOT NULL,
  payment_link_ref text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
  delivery_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id text NOT NULL REFERENCES webhook_events ON DELETE CASCADE,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints ON DELETE CASCADE,
  -- Deliveries of one link to one endpoint go out in order: a later one waits for the earlier.
  ordering_key text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  -- A process that claimed the delivery is sending it until then; past it, another may.
  locked_until timestamptz,
  last_status_code integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (endpoint_id, ordering_key, delivery_id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, delivery_id);
