-- Crypto payments: one-time addresses, locked quotes, the simulated chain and the events the element follows.

-- One-time address indexes come from a sequence: a value once taken is never handed out again, even on rollback.
CREATE SEQUENCE payment_address_index START 0 MINVALUE 0;

CREATE TABLE payments (
  payment_id text PRIMARY KEY,
  -- Creation order, also within one millisecond: "the latest payment of a link" is the highest seq.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  payment_link_ref text NOT NULL REFERENCES payment_links ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('awaiting_payment', 'confirming', 'underpaid', 'paid', 'expired', 'paid_late')),
  overpaid boolean NOT NULL DEFAULT false,
  asset text NOT NULL,
  network text NOT NULL,
  address text NOT NULL UNIQUE,
  address_index bigint NOT NULL UNIQUE,
  -- What is due, in atomic units (wei, sun, satoshi); numeric because 18-decimal amounts outgrow int8.
  amount_atomic numeric(78, 0) NOT NULL CHECK (amount_atomic > 0),
  amount_vnd bigint NOT NULL,
  rate text NOT NULL,
  quote_expires_at timestamptz NOT NULL,
  confirmations_required integer NOT NULL,
  customer jsonb,
  created_at timestamptz NOT NULL,
  paid_at timestamptz
);
-- While a payment is open, the link has no other: a reload gets it back, never a second address.
CREATE UNIQUE INDEX payments_one_open_per_link ON payments (payment_link_ref)
  WHERE status IN ('awaiting_payment', 'confirming', 'underpaid');
CREATE INDEX payments_open_by_network ON payments (network, status);
CREATE INDEX payments_by_link ON payments (payment_link_ref, seq);

-- The simulated chains: blocks per network, and transactions (in the mempool while block_height is null).
CREATE TABLE chain_blocks (
  network text NOT NULL,
  height bigint NOT NULL,
  mined_at timestamptz NOT NULL,
  PRIMARY KEY (network, height)
);

CREATE TABLE chain_transactions (
  tx_hash text PRIMARY KEY,
  network text NOT NULL,
  asset text NOT NULL,
  from_address text NOT NULL,
  to_address text NOT NULL,
  amount_atomic numeric(78, 0) NOT NULL CHECK (amount_atomic > 0),
  block_height bigint,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  created_at timestamptz NOT NULL
);
CREATE INDEX chain_transactions_to ON chain_transactions (to_address, seq);
CREATE INDEX chain_transactions_from ON chain_transactions (from_address);
CREATE INDEX chain_transactions_mempool ON chain_transactions (network) WHERE block_height IS NULL;

-- Every change of a payment as the element saw it: the SSE stream replays from here (Last-Event-ID).
CREATE TABLE payment_events (
  event_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  payment_link_ref text NOT NULL REFERENCES payment_links ON DELETE CASCADE,
  payment_id text NOT NULL REFERENCES payments ON DELETE CASCADE,
  payment jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX payment_events_by_link ON payment_events (payment_link_ref, event_id);
