-- A link the merchant cancelled (services/orders/payment-links.ts, cancel): a decision of the merchant, a fact the
-- state function reads (payment-state.ts) like the link's end: its quotes close then, money that still arrives is
-- held, and the link's status is `cancelled`. A cancelled link is not live, so the order may have a new one.
ALTER TABLE payment_links ADD COLUMN cancelled_at timestamptz;
ALTER TABLE payment_links DROP CONSTRAINT payment_links_status_check;
ALTER TABLE payment_links ADD CONSTRAINT payment_links_status_check CHECK (status IN ('active', 'paid', 'expired', 'cancelled'));
