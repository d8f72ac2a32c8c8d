-- Which database handed out the one-time addresses (services/merchant/address-guard.ts; docs/operations.md, "Back up and
-- restore"): the cluster's system identifier and the payments table's object id when the gateway last started. A
-- pg_dump restored into another cluster changes the first, a pg_restore into the same cluster (--clean, or a new
-- database) the second; a promoted standby keeps both. Then every address index moves past what may have been handed out.
CREATE TABLE address_guard (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  system_identifier text NOT NULL,
  payments_oid bigint NOT NULL,
  checked_at timestamptz NOT NULL
);
