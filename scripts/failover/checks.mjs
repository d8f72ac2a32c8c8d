// What one order of the switch left, and the verdict: on the new primary, every write answered 2xx is there, no order
// has two links, no refund is counted twice, every webhook names an event that exists and came once, every stream
// reached the latest state; the clients saw failures for at most MAX_FAILING_MS, never a 500. With --async, the
// figures only: what was lost.
import { loadavg } from 'node:os';
import { setTimeout as pause } from 'node:timers/promises';
import { ASYNC, AUTO, HEALTH_CHECKS, MAX_FAILING_MS } from './mode.mjs';

/**
 * `db` is a connection to the new primary, `loaded` what load.mjs answered, `api` its clients (their attempts),
 * `received` the receiver's event ids. Ends the streams once they settled. Answers the figures printed and the
 * problems found.
 */
export async function check(db, { order, loadAtStart, api, loaded, received }) {
  const found = await onTheNewPrimary(db, loaded, received);
  const seen = asTheClientsSaw(api, loaded);
  const { acked, lost, streams, marks } = loaded;
  const figures = {
    order,
    replication: ASYNC ? 'asynchronous' : 'synchronous',
    switch_ms: marks,
    ...(AUTO && { health_checks_ms: HEALTH_CHECKS }),
    writes_stopped_ms: seen.writesStopped,
    load_average: [loadAtStart, loadavg()[0]].map((n) => Math.round(n * 10) / 10),
    requests: api.attempts.length,
    answered_2xx: seen.ok.length,
    answered_2xx_before_switch: seen.before,
    failed: seen.failed.length,
    failed_by_status: seen.byStatus,
    failing_window_ms: seen.window,
    failures: seen.failed.length ? `${Math.min(...seen.failed.map((a) => a.started))}–${Math.max(...seen.failed.map((a) => a.ended))} ms` : 'none',
    status_500: seen.all500.length,
    status_500_after_new_primary_up: seen.after500,
    never_answered: lost.length,
    refused_4xx: api.refused.length,
    acknowledged: Object.fromEntries(Object.entries(acked).map(([k, v]) => [k, v.length])),
    acknowledged_then_lost: Object.fromEntries(Object.entries(found.lostWrites).map(([k, v]) => [k, v.length])),
    orders_with_two_links: found.twoLinks,
    orders_refunded_more_than_asked: found.refundedTwice,
    webhooks_received: received.length,
    webhooks_for_events_that_do_not_exist: found.unknownWebhooks,
    webhooks_received_twice: found.duplicateWebhooks,
    webhook_deliveries_not_delivered: found.undelivered,
    streams_behind: found.behind.length,
    stream_reconnects: streams.reduce((n, s) => n + s.reconnects, 0),
  };
  return { figures, problems: ASYNC ? [] : problemsOf(found, seen, { api, loaded, received }) };
}

/** What the new primary holds of what was acknowledged and announced, once webhooks and streams settled. */
async function onTheNewPrimary(db, { acked, refundKeys, streamed, streams }, received) {
  const missing = async (table, column, values) =>
    (await db.query(`SELECT v FROM unnest($1::text[]) AS v WHERE NOT EXISTS (SELECT 1 FROM ${table} WHERE ${column} = v)`, [values])).rows.map((r) => r.v);
  const lostWrites = {
    links: await missing('payment_links', 'payment_link_ref', acked.link),
    payments: await missing('payments', 'payment_id', acked.payment),
    transfers: await missing('sim_transactions', 'tx_hash', acked.transfer),
    refunds: await missing('refunds', 'refund_id', acked.refund),
  };
  const twoLinks = (await db.query('SELECT merchant_order_id FROM payment_links GROUP BY merchant_order_id HAVING count(*) > 1')).rows.length;
  const refundsBy = new Map((await db.query('SELECT l.merchant_order_id AS order_id, count(*)::int AS n FROM refunds r JOIN payment_links l USING (payment_link_ref) GROUP BY 1')).rows.map((r) => [r.order_id, r.n]));
  const refundedTwice = [...refundsBy].filter(([orderId, n]) => n > (refundKeys.get(orderId)?.length ?? 0)).length;

  // Webhooks and streams settle: every delivery sent, every stream at its link's last event.
  const latest = async () =>
    new Map((await db.query('SELECT payment_link_ref AS ref, max(event_id)::text AS id FROM payment_events WHERE payment_link_ref = ANY($1) GROUP BY 1', [streamed.map((s) => s.ref)])).rows.map((r) => [r.ref, r.id]));
  let behind = [];
  for (const until = Date.now() + (ASYNC ? 15_000 : 45_000); Date.now() < until; await pause(250)) {
    const last = await latest();
    behind = streams.filter((s) => s.lastId !== last.get(s.ref));
    const pending = Number((await db.query(`SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'`)).rows[0].count);
    if (!behind.length && !pending) break;
  }
  for (const stream of streams) stream.abort.abort();
  await Promise.all(streams.map((s) => s.done));
  const events = new Set((await db.query('SELECT event_id FROM webhook_events').then((r) => r.rows)).map((r) => r.event_id));
  const counts = new Map();
  for (const id of received) counts.set(id, (counts.get(id) ?? 0) + 1);
  const unknownWebhooks = [...counts.keys()].filter((id) => !events.has(id)).length;
  const duplicateWebhooks = [...counts.values()].filter((n) => n > 1).length;
  const undelivered = (await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'`)).rows[0].n;
  return { lostWrites, twoLinks, refundedTwice, behind, unknownWebhooks, duplicateWebhooks, undelivered };
}

/** Failures as the clients saw them: how many, over which window, the 500s after the new primary was up, and how long no write was acknowledged. */
function asTheClientsSaw(api, { marks, upAt }) {
  const failed = api.attempts.filter((a) => a.status === 0 || a.status >= 500);
  const window = failed.length ? Math.max(...failed.map((a) => a.ended)) - Math.min(...failed.map((a) => a.started)) : 0;
  const all500 = api.attempts.filter((a) => a.status === 500);
  const after500 = all500.filter((a) => a.started >= upAt).length;
  const byStatus = {};
  for (const a of failed) byStatus[a.status || 'no answer'] = (byStatus[a.status || 'no answer'] ?? 0) + 1;
  const ok = api.attempts.filter((a) => a.status >= 200 && a.status < 300);
  const switchedAt = marks[Object.keys(marks)[0]];
  const before = ok.filter((a) => a.ended < switchedAt).length;
  // How long no write was acknowledged: the longest gap between two, from the last one before the switch on.
  const writes = ok.filter((a) => ['link', 'payment', 'transfer', 'refund'].includes(a.op)).map((a) => a.ended).sort((a, b) => a - b);
  let writesStopped = 0;
  for (let i = Math.max(1, writes.findIndex((t) => t >= switchedAt)); i > 0 && i < writes.length; i++) writesStopped = Math.max(writesStopped, writes[i] - writes[i - 1]);
  return { failed, window, all500, after500, byStatus, ok, before, writesStopped };
}

function problemsOf({ lostWrites, twoLinks, refundedTwice, unknownWebhooks, duplicateWebhooks, undelivered, behind }, { window, all500, after500 }, { api, loaded: { acked, lost }, received }) {
  const problems = [];
  for (const [kind, values] of Object.entries(lostWrites)) if (values.length) problems.push(`${values.length} acknowledged ${kind} missing on the new primary: ${values.slice(0, 5).join(', ')}`);
  if (twoLinks) problems.push(`${twoLinks} orders have two links`);
  if (refundedTwice) problems.push(`${refundedTwice} orders have more refunds than were asked for`);
  if (unknownWebhooks) problems.push(`${unknownWebhooks} webhooks name events that do not exist`);
  if (duplicateWebhooks) problems.push(`${duplicateWebhooks} webhooks came more than once`);
  if (undelivered) problems.push(`${undelivered} webhook deliveries not delivered`);
  if (behind.length) problems.push(`${behind.length} streams short of the latest state (${behind.slice(0, 3).map((s) => `${s.ref} at ${s.lastId}`).join(', ')})`);
  if (window > MAX_FAILING_MS) problems.push(`requests failed over ${window} ms (at most ${MAX_FAILING_MS})`);
  // A database that is switching is a 503 with Retry-After, never a 500: before the new primary is up as well.
  if (all500.length) problems.push(`${all500.length} requests answered 500, ${after500} of them after the new primary was up`);
  if (api.refused.length) problems.push(`${api.refused.length} requests refused: ${api.refused.slice(0, 5).join('; ')}`);
  if (lost.length) problems.push(`${lost.length} requests never succeeded: ${lost.slice(0, 5).join(', ')}`);
  if (!acked.refund.length || !received.length) problems.push('the load made no refunds or no webhooks: it proves nothing');
  return problems;
}
