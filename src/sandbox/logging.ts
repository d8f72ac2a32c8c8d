// The gateway's operations and request logs: pino's JSON lines on stderr (the banner alone is on stdout), or pino-pretty's
// lines on a terminal. Every module logs through `log`, which the start replaces once it has read LOG_LEVEL and
// LOG_FORMAT (configureLogging); until then, and in tests that start a gateway in process, JSON at LOG_LEVEL or info.
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };
export type LogFormat = 'json' | 'pretty';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Whatever a caller logs by these names is written as [Redacted]: credentials never reach a log line. */
const REDACT = ['password', 'secret', 'clientSecret', 'client_secret', 'merchantKey', 'dataKey', 'authorization', 'headers.authorization', '*.password', '*.secret'];

/**
 * pino's isoTime, its text kept for the millisecond it names: under load several lines share each millisecond, and
 * formatting the date was about a quarter of what a request's line cost (a CPU profile).
 */
let lastMs = 0;
let lastTime = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

/** `redact`: whether what callers log by REDACT's names is censored; the access log has no such field to pay it for. */
function logger(level: string, destination: DestinationStream, redact = true): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: isoTime,
      formatters: { level: (label) => ({ level: label }) },
      ...(redact && { redact: { paths: REDACT, censor: '[Redacted]' } }),
    },
    destination,
  );
}

const envLevel = (LOG_LEVELS as readonly string[]).includes(process.env.LOG_LEVEL ?? '') ? process.env.LOG_LEVEL! : 'info';
const stderr = pino.destination({ dest: 2, sync: true });

/** The process's logger. */
export let log: Logger = logger(envLevel, stderr);
/**
 * The access log (app.ts): a line per request of fixed fields (its id, method, route, status, duration), none a
 * credential, so written without the redaction every other line goes through, to the same destination.
 */
export let requestLog: Logger = logger(envLevel, stderr, false);

/** Bytes of JSON lines gathered before a write, and the longest a line waits for one, when the gateway runs. */
const LOG_BATCH_BYTES = 4096;
const LOG_FLUSH_MS = 250;

/**
 * Logs of the running gateway: pretty lines for a person at a terminal, else JSON lines, written off the request's path
 * in batches (a write when LOG_BATCH_BYTES have gathered or LOG_FLUSH_MS have passed, and at exit) rather than a
 * write per line, which under load was a write per request.
 */
export async function configureLogging(level: LogLevel, format: LogFormat): Promise<void> {
  let destination: DestinationStream;
  if (format === 'pretty') {
    const { PinoPretty } = await import('pino-pretty');
    destination = PinoPretty({ destination: 2, colorize: process.stderr.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } else {
    destination = pino.destination({ dest: 2, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS });
  }
  log = logger(level, destination);
  requestLog = logger(level, destination, false);
}

/** Writes what the logger holds; the stop calls it before the process exits. */
export const flushLogs = (): void => log.flush();

/** An error's first line: what a node's or a driver's pages of detail say in short. */
export const firstLine = (error: unknown): string => ((error as { shortMessage?: string }).shortMessage ?? (error as Error)?.message ?? String(error)).split('\n')[0]!;
