-- The merchant API of the seed: merchants, tokens, payment links, refunds, idempotency.

CREATE TABLE merchants (
  merchant_id text PRIMARY KEY,
  name text NOT NULL,
  client_id text NOT NULL UNIQUE,
  -- Checked at the token endpoint; the secret itself is never stored in the clear.
  client_secret_hash text NOT NULL,
  -- HMAC verification needs the key itself, so the secret is also kept sealed (AES-256-GCM).
  client_secret_sealed text NOT NULL,
  svc_key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE access_tokens (
  token_hash text PRIMARY KEY,
  merchant_id text NOT NULL REFERENCES merchants ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX access_tokens_expires_at ON access_tokens (expires_at);

CREATE TABLE payment_links (
  payment_link_ref text PRIMARY KEY,
  merchant_id text NOT NULL REFERENCES merchants ON DELETE CASCADE,
  merchant_order_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'paid', 'expired')),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  -- The validated request, without svc_key and signature_hash.
  request jsonb NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  paid_at timestamptz
);
-- At most one live (active or paid) link per order: a second one is a 409, also under races.
CREATE UNIQUE INDEX payment_links_one_live_per_order ON payment_links (merchant_id, merchant_order_id)
  WHERE status IN ('active', 'paid');

CREATE TABLE refunds (
  refund_id text PRIMARY KEY,
  -- Listing order: refunds made in the same millisecond still list in the order they were made.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  payment_link_ref text NOT NULL REFERENCES payment_links ON DELETE CASCADE,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  channel text NOT NULL,
  refund_status text NOT NULL CHECK (refund_status IN ('PENDING', 'SUCCESS', 'FAILED')),
  refund_type text NOT NULL CHECK (refund_type IN ('partial', 'full')),
  refund_reason text NOT NULL,
  description text NOT NULL,
  psp_refund_id text,
  created_at timestamptz NOT NULL
);
CREATE INDEX refunds_payment_link_ref ON refunds (payment_link_ref, seq);

CREATE TABLE idempotency_keys (
  merchant_id text NOT NULL REFERENCES merchants ON DELETE CASCADE,
  idempotency_key text NOT NULL,
  -- SHA-256 of method, path and body: the same key with another request is refused.
  request_hash text NOT NULL,
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, idempotency_key)
);
