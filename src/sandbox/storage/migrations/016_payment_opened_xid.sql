-- The transaction that opened each payment. Payments commit in any order, not in seq order, so a reader that asked
-- for "seq after the last one seen" could pass over an address whose transaction was still running. A reader keeps
-- the oldest transaction still running at its last read (its snapshot's xmin) and reads again from there
-- (chains/follower.ts): every transaction below it had ended, so its payments were seen.
ALTER TABLE payments ADD COLUMN opened_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX payments_by_network_opened ON payments (network, opened_xid);
