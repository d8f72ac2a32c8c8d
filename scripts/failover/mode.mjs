// What this run of scripts/test-failover.mjs is (its flags), and the figures the load and the checks share.
export const ASYNC = process.argv.includes('--async');
export const AUTO = process.argv.includes('--auto-failover');
export const DEFAULT_HEALTH_CHECKS = process.argv.includes('--default-health-checks');
/** Load per order, and when in it the switch happens (the second step follows the first after GAP_MS). */
export const LOAD_MS = 20_000;
export const SWITCH_AT_MS = 7_000;
export const GAP_MS = 1_000;
export const WORKERS = 6;
export const STREAMS = 80;
/** The monitor needs the health checks below to see a primary gone, and then promotes: seconds, not one. */
export const MAX_FAILING_MS = AUTO ? (DEFAULT_HEALTH_CHECKS ? 90_000 : 20_000) : 5_000;
/** How long a client keeps sending one request again (same Idempotency-Key) before it gives up. */
export const GIVE_UP_MS = AUTO ? (DEFAULT_HEALTH_CHECKS ? 120_000 : 30_000) : 15_000;
/**
 * The monitor's health checks (docs/operations.md, "Going live"), in milliseconds: a node is checked every second, a
 * check gives up after one, is tried once more half a second later, and a node silent for two seconds that fails them is
 * unhealthy; a primary that cannot be told to demote itself is taken as demoted after three. The defaults (5 s, 5 s,
 * 2 retries, 2 s, 20 s, 30 s) make a lost primary's failover take about 50 s.
 */
export const HEALTH_CHECKS = DEFAULT_HEALTH_CHECKS ? {} : {
  'pgautofailover.health_check_period': 1_000,
  'pgautofailover.health_check_timeout': 1_000,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 2_000,
  'pgautofailover.primary_demote_timeout': 3_000,
};
