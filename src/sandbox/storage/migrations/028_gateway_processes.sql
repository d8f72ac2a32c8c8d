-- Every gateway process running on the database and the data keys it holds (services/operations/data-keys.ts): a key
-- rotation seals everything again with the new key only once every live process holds it as its GATEWAY_DATA_KEY and
-- seals with it. Written at start and every few seconds (seen_at, the database's clock), deleted at a clean stop; a
-- process not seen for a while is gone.
CREATE TABLE gateway_processes (
  process_id text PRIMARY KEY,
  started_at timestamptz NOT NULL,
  seen_at timestamptz NOT NULL,
  -- Fingerprints of its keys (secrets.ts, keyId), never the keys: its GATEWAY_DATA_KEY, then its previous ones.
  current_key text NOT NULL,
  previous_keys text[] NOT NULL,
  -- The key it has sealed new values with since its last beat.
  sealing_key text NOT NULL
);
