// Chromium traces of the element's paths, as bench/suites/element.ts measures them (same pages, same 4× CPU
// throttling, cold cache, same instrumentation), broken down: where the renderer's main thread spent the time from
// the element's insertion to the summary painted, and from the pay click to the QR painted.
// `npx tsx bench/trace-element.ts [hosted|merchant|floor]... [--runs N] [--save DIR]`
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import type { Browser, Page } from 'playwright-core';
import { sampleLink } from '../test/helpers/gateway.js';
import { ELEMENT_BUNDLE, ensureElementBuilt } from './lib/element-build.js';
import { INSTRUMENT, insertElement, pay, THROTTLE, waitForMark, withElementPages } from './suites/element.js';

type PageName = 'hosted' | 'merchant' | 'floor';

/** Each mark INSTRUMENT sets also becomes a User Timing mark at the same time, so the trace has the window's ends. */
const MARK_IN_TRACE = `(() => {
  const marks = window.__elementBench;
  for (const name of ['inserted', 'defined', 'summaryPainted', 'click', 'qrPainted']) {
    let value;
    Object.defineProperty(marks, name, { enumerable: true, get: () => value, set: (v) => { value = v; performance.mark('bench:' + name, { startTime: v }); } });
  }
})();`;

/** What DevTools' performance panel records: more (blink, cc, v8) costs the page enough to distort DOM-heavy work. */
const CATEGORIES = [
  '-*',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-devtools.timeline.stack',
  'toplevel',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
  'blink.user_timing',
  'latencyInfo',
  ...(process.env.TRACE_CATEGORIES?.split(',') ?? []),
];

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; data?: Record<string, unknown> & { cpuProfile?: CpuProfile; timeDeltas?: number[]; startTime?: number } };
}
interface CpuProfile {
  nodes?: { id: number; parent?: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples?: number[];
}

async function traceOnce(browser: Browser, urls: { gateway: string; merchantPage: string }, ref: string, page_: PageName) {
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  await page.addInitScript(INSTRUMENT);
  await page.addInitScript(MARK_IN_TRACE);
  await browser.startTracing(page, { categories: CATEGORIES });
  if (page_ === 'hosted') await page.goto(`${urls.gateway}/checkout?ref=${encodeURIComponent(ref)}`);
  else if (page_ === 'floor') await page.goto(`${urls.merchantPage}floor?ref=${encodeURIComponent(ref)}`);
  else {
    await page.goto(urls.merchantPage);
    await insertElement(page, ref);
  }
  await waitForMark(page, 'summaryPainted', 'the summary');
  if (page_ !== 'floor') {
    await pay(page);
    await waitForMark(page, 'qrPainted', 'the QR');
  }
  const marks = (await page.evaluate('JSON.parse(JSON.stringify(window.__elementBench))')) as Record<string, number>;
  const buffer = await browser.stopTracing();
  await context.close();
  return { marks, trace: JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] } };
}

/** Names of the main thread's work, grouped as DevTools groups them. */
function categoryOf(name: string): string {
  if (/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|ScheduleStyleRecalculation|StyleInvalidatorInvalidationTracking)$/.test(name)) return 'style';
  if (/^(Layout|UpdateLayerTree|InvalidateLayout)$/.test(name)) return 'layout';
  if (/^(Paint|PrePaint|Layerize|PaintImage|Decode.*|RasterTask|CompositeLayers|Commit|UpdateLayer|ProxyMain::BeginMainFrame::commit|Document::updateStyleAndLayoutTree|LocalFrameView::RunPrePaintLifecyclePhase|LocalFrameView::RunPaintLifecyclePhase)$/.test(name)) return 'paint/composite';
  if (/^(v8\.compile|v8\.compileModule|V8\.CompileCode|V8\.ScriptCompiler|CompileScript|CompileCode|v8\.parseOnBackground|v8\.produceCache|v8\.deserializeOnBackground|V8\.CompileLazy|V8\.ParseFunction|V8\.Parse.*)$/.test(name)) return 'compile';
  if (/^(v8\.run|v8\.callFunction|V8\.Execute|FunctionCall|EvaluateScript|v8\.evaluateModule|RunMicrotasks|TimerFire|FireAnimationFrame|EventDispatch|XHRReadyStateChange|V8\.GCScavenger|MinorGC|MajorGC|V8\.GC.*|v8\.callModuleMethod.*)$/.test(name)) return 'script';
  if (/^(ParseHTML|HTMLDocumentParser.*)$/.test(name)) return 'parse HTML';
  if (/^(ResourceSendRequest|ResourceReceiveResponse|ResourceReceivedData|ResourceFinish|ResourceFetcher.*|ResourceLoader.*)$/.test(name)) return 'loading';
  return 'other';
}

function analyse(trace: { traceEvents: TraceEvent[] }, from: string, to: string, source: TraceMap) {
  const events = trace.traceEvents;
  const markEvents = events.filter((e) => e.cat.includes('blink.user_timing') && e.name.startsWith('bench:'));
  const at = (name: string) => markEvents.find((e) => e.name === `bench:${name}`);
  const start = at(from);
  const end = at(to);
  if (!start || !end) throw new Error(`marks ${from}/${to} not in the trace: ${markEvents.map((e) => e.name).join(', ')}`);
  // A User Timing mark with a startTime is traced at that time: the window's ends are the stamps themselves.
  const t0 = start.ts;
  const t1 = end.ts;
  const pid = start.pid;
  const mainTid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')?.tid;
  const main = events.filter((e) => e.pid === pid && e.tid === mainTid && (e.ph === 'X' || e.ph === 'B' || e.ph === 'E')).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // Complete events from B/E pairs.
  const complete: TraceEvent[] = [];
  const open: TraceEvent[] = [];
  for (const e of main) {
    if (e.ph === 'X') complete.push(e);
    else if (e.ph === 'B') open.push(e);
    else {
      const b = open.pop();
      if (b) complete.push({ ...b, ph: 'X', dur: e.ts - b.ts });
    }
  }
  complete.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const clip = (s: number, e: number) => Math.max(0, Math.min(e, t1) - Math.max(s, t0));
  // Self time per name: walk a stack of enclosing events.
  const self = new Map<string, number>();
  const stack: { e: TraceEvent; end: number; childTime: number }[] = [];
  const close = (upTo: number) => {
    while (stack.length && stack.at(-1)!.end <= upTo) {
      const top = stack.pop()!;
      const own = clip(top.e.ts, top.end) - top.childTime;
      self.set(top.e.name, (self.get(top.e.name) ?? 0) + own);
      if (stack.length) stack.at(-1)!.childTime += clip(top.e.ts, top.end);
    }
  };
  const tasks: TraceEvent[] = [];
  for (const e of complete) {
    const endTs = e.ts + (e.dur ?? 0);
    close(e.ts);
    if (!stack.length) tasks.push(e);
    stack.push({ e, end: endTs, childTime: 0 });
  }
  close(Infinity);
  const busy = tasks.reduce((sum, t) => sum + clip(t.ts, t.ts + (t.dur ?? 0)), 0);
  const byCategory = new Map<string, number>();
  for (const [name, us] of self) byCategory.set(categoryOf(name), (byCategory.get(categoryOf(name)) ?? 0) + us);
  byCategory.set('idle (no task)', t1 - t0 - busy);
  const ms = (us: number) => Math.round(us / 100) / 10;
  // The top-level tasks in the window, in order, with the gaps between them and what each mostly did.
  const timeline: string[] = [];
  let last = t0;
  for (const t of tasks) {
    const s = t.ts;
    const e = t.ts + (t.dur ?? 0);
    if (e < t0 || s > t1 || clip(s, e) < 300) continue;
    if (s - last > 1000) timeline.push(`  ${ms(last - t0).toFixed(1).padStart(6)}  idle ${ms(s - last)} ms`);
    const inside = complete.filter((c) => c !== t && c.ts >= s && c.ts + (c.dur ?? 0) <= e && (c.dur ?? 0) > 500);
    const names = [...new Set(inside.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 6).map((c) => `${c.name}${c.args?.data?.functionName ? `(${c.args.data.functionName})` : ''}${c.args?.data?.url ? `[${String(c.args.data.url).replace(/^.*\//, '')}]` : ''} ${ms(c.dur ?? 0)}`))];
    timeline.push(`  ${ms(s - t0).toFixed(1).padStart(6)}  ${t.name} ${ms(e - s)} ms: ${names.join(', ')}`);
    last = Math.max(last, e);
  }
  if (t1 - last > 1000) timeline.push(`  ${ms(last - t0).toFixed(1).padStart(6)}  idle ${ms(t1 - last)} ms`);
  // CPU profile: self samples by function in the window (and, per task above, its own top functions).
  const profile = new Map<string, number>();
  const chunks = events.filter((e) => e.pid === pid && (e.name === 'ProfileChunk' || e.name === 'Profile'));
  const sampled: { time: number; label: string }[] = [];
  const nodes = new Map<number, { functionName: string; url: string; lineNumber: number; columnNumber: number }>();
  let time = 0;
  const byId = new Map<string, number>();
  for (const e of chunks) {
    if (e.name === 'Profile') {
      byId.set(e.id ?? '', e.args?.data?.startTime ?? 0);
      continue;
    }
    const data = e.args?.data;
    const profileData = data?.cpuProfile;
    for (const n of profileData?.nodes ?? []) nodes.set(n.id, n.callFrame);
    time = byId.get(e.id ?? '') ?? time;
    const deltas = data?.timeDeltas ?? [];
    (profileData?.samples ?? []).forEach((id, i) => {
      time += deltas[i] ?? 0;
      byId.set(e.id ?? '', time);
      if (time < t0 || time > t1) return;
      const frame = nodes.get(id);
      if (!frame) return;
      let label = frame.functionName || '(anonymous)';
      if (frame.url?.endsWith('/pay-checkout.js')) {
        const original = originalPositionFor(source, { line: frame.lineNumber + 1, column: frame.columnNumber });
        label = `${original.name ?? frame.functionName ?? '?'} ${original.source?.replace(/^.*node_modules\//, '').replace(/^.*src\//, 'src/')}:${original.line}`;
      } else if (frame.url) label += ` ${frame.url.replace(/^.*\//, '')}:${frame.lineNumber + 1}`;
      profile.set(label, (profile.get(label) ?? 0) + 1);
      sampled.push({ time, label });
    });
  }
  const samples = [...profile.values()].reduce((a, b) => a + b, 0);
  const perTask = tasks
    .filter((t) => clip(t.ts, t.ts + (t.dur ?? 0)) > 3000)
    .map((t) => {
      const inTask = new Map<string, number>();
      for (const s of sampled) if (s.time >= t.ts && s.time <= t.ts + (t.dur ?? 0) && !s.label.startsWith('(program)')) inTask.set(s.label, (inTask.get(s.label) ?? 0) + 1);
      const top = [...inTask].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k} ×${v}`);
      return `  ${ms(t.ts - t0).toFixed(1).padStart(6)} (${ms(t.dur ?? 0)} ms): ${top.join(', ')}`;
    });
  return {
    windowMs: ms(t1 - t0),
    byCategory: [...byCategory].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${ms(v)}`),
    bySelf: [...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${k} ${ms(v)}`),
    timeline,
    perTask,
    categories: Object.fromEntries([...byCategory].map(([k, v]) => [k, v / 1000])),
    profile: [...profile].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${v}/${samples} ${k}`),
  };
}

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1] ?? 1) || 1;
const saveDir = args.includes('--save') ? args[args.indexOf('--save') + 1] : undefined;
const pages = (args.filter((a, i) => !a.startsWith('--') && !['--runs', '--save'].includes(args[i - 1] ?? '')) as PageName[]).filter(Boolean);
console.log(ensureElementBuilt());
const source = new TraceMap(readFileSync(`${ELEMENT_BUNDLE}.map`, 'utf8'));
/** Per page and window, each run's window and ms by category, for the medians printed at the end. */
const summary: Record<string, Record<string, number>[]> = {};
await withElementPages(async ({ browser, merchant, urls }) => {
  // Warm the gateway and the browser, as the bench's first, unrecorded run does.
  await traceOnce(browser, urls, (await merchant.createPaymentLink(sampleLink())).payment_link_ref, 'hosted');
  for (let run = 0; run < runs; run++) {
    for (const name of pages.length ? pages : (['floor', 'merchant', 'hosted'] as PageName[])) {
      const { payment_link_ref: ref } = await merchant.createPaymentLink(sampleLink());
      const { marks, trace } = await traceOnce(browser, urls, ref, name);
      if (saveDir) {
        mkdirSync(saveDir, { recursive: true });
        writeFileSync(join(saveDir, `${name}-${run}.json`), JSON.stringify(trace));
      }
      const windows: [string, string][] = [['inserted', 'summaryPainted']];
      if (name !== 'floor') windows.push(['click', 'qrPainted']);
      for (const [from, to] of windows) {
        const result = analyse(trace, from, to, source);
        (summary[`${name}: ${from} → ${to}`] ??= []).push({ window: result.windowMs, ...result.categories });
        console.log(`\n### ${name} run ${run}: ${from} → ${to}: ${result.windowMs} ms (marks: ${Math.round(marks[to]! - marks[from]!)} ms)`);
        console.log(`by category: ${result.byCategory.join(', ')}`);
        console.log(`self time: ${result.bySelf.join(', ')}`);
        console.log('tasks:');
        console.log(result.timeline.join('\n'));
        // Counts, not time: under CPU throttling V8's sampler runs only while the thread does, at uneven intervals.
        console.log('per task, its functions by CPU profile samples:');
        console.log(result.perTask.join('\n'));
        console.log('CPU profile (self samples):');
        console.log(result.profile.map((l) => `  ${l}`).join('\n'));
      }
    }
  }
});
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;
console.log('\n### medians over the runs, ms');
for (const [what, rows] of Object.entries(summary)) {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  console.log(`${what} (${rows.length} runs): ${keys.map((k) => `${k} ${median(rows.map((row) => row[k] ?? 0)).toFixed(1)}`).join(', ')}`);
}
