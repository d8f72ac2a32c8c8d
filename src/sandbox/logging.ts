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

function logger(level: string, destination: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT, censor: '[Redacted]' },
    },
    destination,
  );
}

const envLevel = (LOG_LEVELS as readonly string[]).includes(process.env.LOG_LEVEL ?? '') ? process.env.LOG_LEVEL! : 'info';

/** The process's logger. */
export let log: Logger = logger(envLevel, pino.destination({ dest: 2, sync: true }));

/**
 * Logs of the running gateway: pretty lines for a person at a terminal, else JSON lines, written off the request's path
 * (the lines that come while a write is under way go out together with the next; flushed at exit).
 */
export async function configureLogging(level: LogLevel, format: LogFormat): Promise<void> {
  if (format === 'pretty') {
    const { PinoPretty } = await import('pino-pretty');
    log = logger(level, PinoPretty({ destination: 2, colorize: process.stderr.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
  } else {
    log = logger(level, pino.destination({ dest: 2, sync: false }));
  }
}

/** Writes what the logger holds; the stop calls it before the process exits. */
export const flushLogs = (): void => log.flush();

/** An error's first line: what a node's or a driver's pages of detail say in short. */
export const firstLine = (error: unknown): string => ((error as { shortMessage?: string }).shortMessage ?? (error as Error)?.message ?? String(error)).split('\n')[0]!;
