-- The payouts' watch for reorganisations (services/orders/payouts.ts) reads the refunds confirmed in the last hour,
-- every second: from this index, not from every refund that ever succeeded.
CREATE INDEX refund_events_confirmed ON refund_events (at) WHERE event = 'confirmed';
