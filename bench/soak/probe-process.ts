// The soak's probe in a process of its own (bench/soak/abuse.ts): the flood's client keeps the soak's own event loop
// busy, and a probe there would count that wait as the gateway's. Arguments: the URL and how long to probe, in ms;
// prints what it measured (Probes) as one JSON line.
import { probeFor } from '../lib/probe.js';

const [url, ms] = process.argv.slice(2);
if (!url || !(Number(ms) > 0)) throw new Error('usage: probe-process.ts <url> <milliseconds>');
process.stdout.write(`${JSON.stringify(await probeFor(url, Number(ms)))}\n`);
