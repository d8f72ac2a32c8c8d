-- Chains behind one port (src/sandbox/chains/port.ts): the gateway keeps its own record of what a chain showed it
-- (blocks it followed, transfers to its addresses, a cursor per network), whichever port it came from, the simulator
-- or a node. The simulator's tables become the simulator's alone.

ALTER TABLE chain_blocks RENAME TO sim_blocks;
ALTER TABLE chain_transactions RENAME TO sim_transactions;
ALTER INDEX chain_transactions_to RENAME TO sim_transactions_to;
ALTER INDEX chain_transactions_from RENAME TO sim_transactions_from;
ALTER INDEX chain_transactions_mempool RENAME TO sim_transactions_mempool;
-- A simulated block has a hash, so that the gateway follows it as it follows a node's.
ALTER TABLE sim_blocks ADD COLUMN hash text;
UPDATE sim_blocks SET hash = CASE WHEN network = 'ETHEREUM' THEN '0x' ELSE '' END
  || encode(sha256(convert_to(network || ':' || height || ':' || random()::text, 'UTF8')), 'hex');
ALTER TABLE sim_blocks ALTER COLUMN hash SET NOT NULL;

-- The blocks the gateway has followed on each network, as the chain showed them: a block that leaves the chain is
-- deleted (a reorganisation), so these are the canonical chain as the gateway knows it.
CREATE TABLE chain_blocks (
  network text NOT NULL,
  height bigint NOT NULL,
  hash text NOT NULL,
  -- The chain's own time for the block: transfers found late (after an outage) are judged by it.
  block_time timestamptz NOT NULL,
  -- When the gateway recorded it: a transfer is confirmed when the gateway knew it was.
  recorded_at timestamptz NOT NULL,
  PRIMARY KEY (network, height)
);

-- Where the gateway is on each network: the last block it followed, and when it last saw the chain in full (null for
-- the simulator, whose facts are recorded as they happen; a node's network lags once that is older than stale_after_ms).
CREATE TABLE chain_cursors (
  network text PRIMARY KEY,
  height bigint NOT NULL,
  hash text NOT NULL,
  synced_at timestamptz,
  stale_after_ms integer
);

-- Transfers into the gateway's addresses: seen waiting for a block (block_height null), or in a followed block.
CREATE TABLE chain_transfers (
  network text NOT NULL,
  tx_hash text NOT NULL,
  -- Where in the transaction: `call:` the value of the transaction itself (`call:0.1` of an inner call), `log:N` an
  -- ERC-20 Transfer event, `pending:N` a token transfer read from a transaction still waiting for a block.
  position text NOT NULL,
  asset text NOT NULL,
  from_address text NOT NULL,
  to_address text NOT NULL,
  amount_atomic numeric(78, 0) NOT NULL CHECK (amount_atomic > 0),
  block_height bigint,
  block_hash text,
  -- When it was first seen: waiting for a block, or else its block's time. Whether it came in time is decided by it.
  seen_at timestamptz NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (network, tx_hash, position)
);
CREATE INDEX chain_transfers_to ON chain_transfers (to_address, seq);
CREATE INDEX chain_transfers_by_block ON chain_transfers (network, block_height);

-- What the simulated chains showed so far, as the gateway's facts: the blocks, the transfers into payment addresses,
-- and a cursor at each network's tip.
INSERT INTO chain_blocks (network, height, hash, block_time, recorded_at) SELECT network, height, hash, mined_at, mined_at FROM sim_blocks;
INSERT INTO chain_cursors (network, height, hash) SELECT DISTINCT ON (network) network, height, hash FROM sim_blocks ORDER BY network, height DESC;
INSERT INTO chain_transfers (network, tx_hash, position, asset, from_address, to_address, amount_atomic, block_height, block_hash, seen_at)
  SELECT t.network, t.tx_hash, 'call:', t.asset, t.from_address, t.to_address, t.amount_atomic, t.block_height, b.hash, t.created_at
  FROM sim_transactions t JOIN payments p ON p.address = t.to_address AND p.network = t.network
  LEFT JOIN sim_blocks b ON b.network = t.network AND b.height = t.block_height
  ORDER BY t.seq;

-- While a quote is open (awaiting_payment, underpaid), the link has no other open quote. A payment whose money is found
-- late, judged in time by its block's time after a node's outage, may be confirming beside a newer open quote.
ALTER TABLE payments DROP CONSTRAINT payments_one_open_per_link;
ALTER TABLE payments ADD CONSTRAINT payments_one_open_per_link EXCLUDE USING btree (payment_link_ref WITH =)
  WHERE (status IN ('awaiting_payment', 'underpaid')) DEFERRABLE INITIALLY DEFERRED;

-- When a reorganisation dropped a block of this payment's money after the payment was paid: the merchant is told.
ALTER TABLE payments ADD COLUMN reorged_at timestamptz;
-- The simulator's send of each refund, in atomic units: what was sent back is the refunds' record, not a chain's.
ALTER TABLE refunds ADD COLUMN amount_atomic numeric(78, 0);
UPDATE refunds r SET amount_atomic = t.amount_atomic FROM sim_transactions t WHERE t.tx_hash = r.psp_refund_id;
