// Database outages at the same address, as an operator sees them: an idle gateway process keeps one LISTEN connection
// through them all, its memory stays flat, and each outage is one log line when it starts and one when it ends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { proxiedSchema, startGatewayProcess, type GatewayProcess, type ProxiedSchema } from '../helpers/process.js';
import { until } from '../helpers/until.js';

const databaseUrl = process.env.TEST_DATABASE_URL!;
const OUTAGES = 5;

describe('database outages (PostgreSQL)', () => {
  const applicationName = `pay-checkout-outage-${process.pid}`;
  const schema = `outage_${process.pid}`;
  let database: ProxiedSchema;
  let gateway: GatewayProcess;

  before(async () => {
    database = await proxiedSchema(databaseUrl, schema);
    const url = new URL(database.url);
    url.searchParams.set('application_name', applicationName);
    gateway = await startGatewayProcess({ DATABASE_URL: url.toString(), SANDBOX_BLOCK_INTERVAL_MS: '0', LOG_LEVEL: 'info' }, { captureLogs: true });
  });
  after(async () => {
    await gateway?.kill();
    await database?.drop();
  });

  const listening = async () =>
    Number(
      (await database.admin.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE 'LISTEN%'`, [applicationName])).rows[0]!.n,
    );
  /** Waits for the `n`th log line matching `pattern`; a process that is gone, or a line that does not come, fails with the logs. */
  async function logged(pattern: RegExp, n: number): Promise<void> {
    let exited: { code: number | null } | undefined;
    void gateway.exited.then((status) => (exited = status));
    const { value } = await until(async () => gateway.logEntries().filter((l) => pattern.test(l.msg)).length, (seen) => seen >= n || exited !== undefined, 15_000);
    assert.ok(value >= n, `${n} lines matching ${pattern} expected, ${value} logged${exited ? ` (exited ${exited.code})` : ''}:\n${gateway.logs()}`);
  }
  /**
   * The LISTEN connections once the process says it is back: exactly one, once the server has seen the cut one go
   * (its backend lingers a moment after the proxy cuts it). A second client would come from a second reconnect loop,
   * which would say "connection back" again: the count of those lines below rules that out.
   */
  async function settled(outages: number): Promise<number> {
    await logged(/connection back/, outages);
    return (await until(listening, (n) => n === 1, 15_000)).value;
  }

  it(`keeps one LISTEN connection and flat memory across ${OUTAGES} outages, saying one line at each start and end`, async (t) => {
    assert.equal(await settled(0), 1);
    const rssBefore = gateway.rssKb();
    const counts: number[] = [];
    for (let i = 0; i < OUTAGES; i++) {
      database.proxy.refuse();
      await logged(/connection lost/, i + 1);
      database.proxy.thaw();
      counts.push(await settled(i + 1));
    }
    const rssAfter = gateway.rssKb();
    t.diagnostic(`LISTEN connections after each outage: ${counts.join(', ')}; RSS ${rssBefore} → ${rssAfter} KiB`);
    assert.deepEqual(counts, Array(OUTAGES).fill(1), 'LISTEN connections after each outage');
    assert.ok(rssAfter < rssBefore * 1.1, `RSS ${rssBefore} → ${rssAfter} KiB`);

    const lines = gateway.logEntries();
    const lost = lines.filter((l) => /connection lost/.test(l.msg));
    const back = lines.filter((l) => /connection back/.test(l.msg));
    assert.equal(lost.length, OUTAGES, lost.map((l) => l.msg).join('\n'));
    assert.equal(back.length, OUTAGES);
    assert.ok(lines.every((l) => l.time && l.level));
    // Exit 0 is a stop finished within SHUTDOWN_TIMEOUT_MS: past it, the process exits 1 (src/sandbox/start.ts).
    const { code } = await gateway.stop();
    assert.equal(code, 0);
  });
});
