-- A delivery waiting behind an earlier one of its endpoint and link has no time of its own until that one is done
-- (storage/webhooks.ts): the claim reads the deliveries that may go and those leased, not the backlog behind them.
UPDATE webhook_deliveries d SET next_attempt_at = NULL
WHERE d.status = 'pending' AND EXISTS (
  SELECT 1 FROM webhook_deliveries s
  WHERE s.status = 'pending' AND s.endpoint_id = d.endpoint_id AND s.ordering_key = d.ordering_key AND s.delivery_id < d.delivery_id);

CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (locked_until) WHERE status = 'pending' AND locked_until IS NOT NULL;
