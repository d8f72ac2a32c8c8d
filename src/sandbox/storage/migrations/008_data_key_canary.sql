-- A value sealed with the data key, which readiness opens (services/operations/readiness.ts): a key that cannot open
-- it is not the key the database's secrets were sealed with.
CREATE TABLE data_key_canary (
  id smallint PRIMARY KEY CHECK (id = 1),
  sealed text NOT NULL,
  sealed_at timestamptz NOT NULL
);
