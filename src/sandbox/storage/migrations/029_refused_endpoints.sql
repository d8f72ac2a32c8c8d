-- An endpoint a delivery found refused by a URL rule (one added before the rule, or whose host now resolves to a
-- private address), for the merchant to read (GET /api/webhooks/endpoints, the portal): the rule it breaks, what the
-- rule says of its URL, and since when; cleared by an attempt that finds its URL allowed (services/webhooks/dispatcher.ts).
ALTER TABLE webhook_endpoints ADD COLUMN refused_rule text, ADD COLUMN refused_reason text, ADD COLUMN refused_at timestamptz;
