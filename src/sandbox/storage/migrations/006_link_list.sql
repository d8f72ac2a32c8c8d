-- The merchant's list of links (GET /api/paymentLink): newest first, a page at a time from the last page's sort key.
CREATE INDEX payment_links_by_merchant_created ON payment_links (merchant_id, created_at, payment_link_ref);

-- An order page's webhook deliveries: the events of one link.
CREATE INDEX webhook_events_by_link ON webhook_events (payment_link_ref);
