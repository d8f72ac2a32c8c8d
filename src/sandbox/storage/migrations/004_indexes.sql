-- Indexes for what the watcher and the event stream ask every second or on every change (measured by `npm run bench`).

-- The last event of a payment: read on every reconcile, to tell whether what the customer sees changed.
CREATE INDEX payment_events_by_payment ON payment_events (payment_id, event_id);

-- Links and quotes whose time runs out: scanned every second.
CREATE INDEX payment_links_active_by_expiry ON payment_links (expires_at) WHERE status = 'active';
CREATE INDEX payments_open_by_quote_expiry ON payments (quote_expires_at) WHERE status IN ('awaiting_payment', 'underpaid');

-- Transactions still gaining confirmations after a block: the newest blocks of a network.
CREATE INDEX chain_transactions_by_block ON chain_transactions (network, block_height);
