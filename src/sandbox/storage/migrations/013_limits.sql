-- Rate limits shared by every gateway process on the database (services/operations/rate-limits.ts): one row per
-- counted key (a client address, a link, a client id) and its current fixed window.
CREATE TABLE rate_limit_windows (
  key text PRIMARY KEY,
  ends_at timestamptz NOT NULL,
  hits integer NOT NULL
);
CREATE INDEX rate_limit_windows_ends_at ON rate_limit_windows (ends_at);
