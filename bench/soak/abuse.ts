// `npm run soak:abuse`: one client floods the gateway the ways docs/security.md's limits are for, each for
// SOAK_SECONDS (60 by default), while a probe in a process of its own reads another link's checkout
// (GET /api/checkout/{ref}) every 100 ms. Printed per flood: the probe's p50 / p99 against its baseline, measured alone
// for as long (target: p99 within 3× the baseline), and what the attacker got, by status (the 429s are the limits at
// work). One gateway process on PGlite with the default limits.
import { spawn } from 'node:child_process';
import { get, request, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { MerchantClient } from '../../src/merchant/index.js';
import { openPayment, sandboxMerchant } from '../lib/gateway-client.js';
import type { Probes } from '../lib/probe.js';
import { fmt, renderTable, summarize, type Table } from '../lib/report.js';
import { startServer } from '../lib/server-process.js';
import { pglite } from '../lib/storage.js';
import { sampleLink } from '../../test/helpers/gateway.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const P99_TARGET = 3;
const PROBE_PROCESS = new URL('probe-process.ts', import.meta.url).pathname;

/** Probes `url` for SECONDS from another process; `whileProbing` runs until the probe is done. */
async function probeApart<T>(url: string, whileProbing: (going: () => boolean) => Promise<T>): Promise<[T, Probes]> {
  const child = spawn(process.execPath, ['--import', 'tsx', PROBE_PROCESS, url, String(SECONDS * 1000)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  let probing = true;
  const probed = new Promise<Probes>((resolve, reject) =>
    child.once('exit', (code) => {
      probing = false;
      if (code === 0) resolve(JSON.parse(out) as Probes);
      else reject(new Error(`the probe exited with ${code}`));
    }),
  );
  return Promise.all([whileProbing(() => probing), probed]);
}

type Counts = Map<string, number>;
const tally = (counts: Counts, key: number | string) => counts.set(String(key), (counts.get(String(key)) ?? 0) + 1);

/** One request; its status, or the error's code. */
function send(url: string, method: string, headers: Record<string, string>, body?: Buffer | string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, { method, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end(body);
  });
}

/** `connections` loops, each sending what `next()` says until the flood ends. */
async function loops(connections: number, going: () => boolean, step: (counts: Counts) => Promise<void>): Promise<Counts> {
  const counts: Counts = new Map();
  await Promise.all(Array.from({ length: connections }, async () => {
    while (going()) await step(counts);
  }));
  return counts;
}

interface Flood {
  finding: string;
  name: string;
  run(url: string, going: () => boolean): Promise<Counts>;
}

const openBody = (asset: string, network: string) => JSON.stringify({ pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset, network });

function floods(merchant: MerchantClient, token: string): Flood[] {
  return [
    {
      finding: '1',
      name: 'alternating coin opens on one link, 4 connections',
      async run(url, going) {
        const { payment_link_ref: ref } = await merchant.createPaymentLink(sampleLink());
        let i = 0;
        return loops(4, going, async (counts) => {
          const body = i++ % 2 ? openBody('USDT', 'TRON') : openBody('USDT', 'ETHEREUM');
          tally(counts, await send(`${url}/api/checkout/${ref}/payments`, 'POST', {}, body));
        });
      },
    },
    {
      finding: '7',
      name: 'event streams held open, as many as taken',
      async run(url, going) {
        const refs = await Promise.all(Array.from({ length: 10 }, async () => (await merchant.createPaymentLink(sampleLink())).payment_link_ref));
        const held: IncomingMessage[] = [];
        const counts: Counts = new Map();
        let i = 0;
        while (going()) {
          const status = await new Promise<number | string>((resolve) => {
            get(`${url}/api/checkout/${refs[i++ % refs.length]}/events`, (response) => {
              if (response.statusCode === 200) held.push(response);
              else response.resume();
              resolve(response.statusCode!);
            }).on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
          });
          tally(counts, status);
          if (status !== 200) await new Promise((r) => setTimeout(r, 5));
        }
        for (const response of held) response.destroy();
        return counts;
      },
    },
    {
      finding: '8',
      name: 'webhook endpoints added, 4 connections',
      async run(url, going) {
        let i = 0;
        return loops(4, going, async (counts) => {
          // A public address as a literal: a name would cost a DNS lookup, and one that does not resolve is refused (422).
          const body = JSON.stringify({ url: `https://93.184.216.34/pay-${i++}` });
          tally(counts, await send(`${url}/api/webhooks/endpoints`, 'POST', { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body));
        });
      },
    },
    {
      finding: '11',
      name: 'wrong client secrets, 4 connections',
      async run(url, going) {
        return loops(4, going, async (counts) => {
          const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sandbox_client', client_secret: randomUUID() }).toString();
          tally(counts, await send(`${url}/api/v2/oauth/token`, 'POST', { 'content-type': 'application/x-www-form-urlencoded' }, body));
        });
      },
    },
    {
      finding: '12',
      name: '256 KiB and 120,000-deep bodies, 20 connections',
      async run(url, going) {
        const { payment_link_ref: ref } = await merchant.createPaymentLink(sampleLink());
        const large = Buffer.from(JSON.stringify({ pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON', customer: 'x'.repeat(255 * 1024) }));
        const deep = Buffer.from(`{"customer":${'['.repeat(120_000)}${']'.repeat(120_000)}}`);
        let i = 0;
        return loops(20, going, async (counts) => {
          tally(counts, await send(`${url}/api/checkout/${ref}/payments`, 'POST', {}, i++ % 2 ? large : deep));
        });
      },
    },
  ];
}

const gateway = await startServer('gateway', { ...(await pglite.fresh()).env, LOG_LEVEL: 'warn' });
try {
  const merchant = sandboxMerchant(gateway.url);
  const probed = await openPayment(gateway.url, merchant);
  const probeUrl = `${gateway.url}/api/checkout/${probed.ref}`;
  const { access_token: token } = await merchant.issueToken();
  const [, alone] = await probeApart(probeUrl, async () => undefined);
  const baseline = summarize(alone.times);
  console.log(`Baseline (${SECONDS} s, alone): probe p50 ${fmt(baseline.p50)} ms, p99 ${fmt(baseline.p99)} ms`);
  const table: Table = {
    title: `Each flood for ${SECONDS} s from one client; the probe reads another link's checkout every 100 ms`,
    columns: ['finding', 'flood', 'probe p50 ms', 'p99 ms', 'p99 / baseline', `within ${P99_TARGET}×`, 'probe failures', 'attacker answers'],
    rows: [],
  };
  for (const flood of floods(merchant, token)) {
    const [counts, probes] = await probeApart(probeUrl, (going) => flood.run(gateway.url, going));
    const during = summarize(probes.times);
    const ratio = during.p99 / baseline.p99;
    const answers = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status}: ${n}`).join(', ');
    table.rows.push([flood.finding, flood.name, fmt(during.p50), fmt(during.p99), fmt(ratio, 2), ratio <= P99_TARGET ? 'yes' : 'NO', probes.failures.length, answers]);
    console.log(`finding ${flood.finding} done: p99 ${fmt(during.p99)} ms; ${answers}`);
    // Let what the flood left (closing streams, queued work) settle before the next one is measured.
    await new Promise((r) => setTimeout(r, 2_000));
  }
  table.rows.push(['—', 'baseline', fmt(baseline.p50), fmt(baseline.p99), '1', '—', 0, '—']);
  console.log(`\n${renderTable(table)}`);
} finally {
  await gateway.stop();
}
