-- Where each quote's rate came from (src/sandbox/services/rates/rate-book.ts): the market rate, the spread, and every
-- source's price with its time, used or left out. Null for payments quoted before it was recorded.
ALTER TABLE payments ADD COLUMN rate_provenance jsonb;
