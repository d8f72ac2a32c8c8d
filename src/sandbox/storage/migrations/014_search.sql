-- The portal's search (storage/link-list.ts): whatever a customer or an accountant quotes finds the order through an
-- index, never a scan of every link. Substrings through trigram indexes (pg_trgm: shipped with PostgreSQL, loaded into
-- PGlite by storage/pglite.ts), on text folded the same way on both sides: lower case, Vietnamese diacritics off.

-- In public, named in full below: tests and deployments may keep the gateway's tables in a schema of their own.
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;

-- "Nguyen" finds "Nguyễn", "DANG" finds "Đặng": lower case, and without the marks that decomposing (NFD) splits off a
-- letter (Vietnamese tones and vowel marks, é, ü, ç), đ read as d. ASCII (ids, hashes, addresses) only needs lower().
CREATE FUNCTION search_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN octet_length(value) = length(value) THEN lower(value)
    ELSE lower(translate(regexp_replace(normalize(value, NFD), '[\u0300-\u036f]', '', 'g'), 'đĐ', 'dD')) END;

-- A phone as its digits, and for a Vietnamese number also as it is dialled at home: "+84 912 345 678" is found by
-- "0912345678" and by "84912345678".
CREATE FUNCTION search_phone(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN regexp_replace(regexp_replace(value, '[^0-9]', '', 'g'), '^84(.*)$', '84\1 0\1');

-- A contact's words (billing details, or what the customer gave at checkout), one line each.
CREATE FUNCTION contact_search_text(name text, email text, phone text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN search_fold(coalesce(name, '') || E'\n' || coalesce(email, '')) || E'\n' || coalesce(search_phone(phone), '');

-- A link: its order id and the billing contact.
CREATE FUNCTION link_search_text(merchant_order_id text, request jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN search_fold(merchant_order_id) || E'\n' || contact_search_text(request #>> '{billing_details,billing_name}',
    request #>> '{billing_details,billing_email}', request #>> '{billing_details,billing_phone}');
CREATE INDEX payment_links_search ON payment_links USING gin (link_search_text(merchant_order_id, request) public.gin_trgm_ops);
-- An amount in VND, however it was spelled, is one number: found by equality.
CREATE INDEX payment_links_by_amount ON payment_links (merchant_id, amount);

-- A payment: its id, the address it was paid to, the contact given at checkout.
CREATE FUNCTION payment_search_text(payment_id text, address text, customer jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN search_fold(payment_id || E'\n' || address) || E'\n' || contact_search_text(customer ->> 'name', customer ->> 'email', customer ->> 'phone');
CREATE INDEX payments_search ON payments USING gin (payment_search_text(payment_id, address, customer) public.gin_trgm_ops);

-- A transfer into a payment's address: its transaction and the address that paid.
CREATE INDEX chain_transfers_search ON chain_transfers USING gin (search_fold(tx_hash || E'\n' || from_address) public.gin_trgm_ops);

-- A refund: its id, its payout's transaction, where it went.
CREATE INDEX refunds_search ON refunds USING gin (search_fold(refund_id || E'\n' || coalesce(psp_refund_id, '') || E'\n' || coalesce(destination, '')) public.gin_trgm_ops);
