// The rate source port: a public price source, asked at its URL, answers prices of pairs ("ETH/USD": how many USD one
// ETH is worth) as decimal strings, each with the time the source says it is from. One implementation per documented
// response format (docs/rates.md, "Sources"): Binance's public ticker, CoinGecko's simple price, ExchangeRate-API's
// open access latest rates (open.er-api.com), and the sandbox's fixed rates. Nothing here runs on a request's path:
// services/rates/rate-feed.ts asks the sources on their schedule. An answer is read within bounds (docs/rates.md,
// "Reading an answer"), and one past any of them is a failed answer, never a price and never a throw past the feed.
import { readCapped } from '../http/capped-body.js';
import { JsonNumber, parseJsonText, type JsonObject, type JsonValue } from './json-text.js';

/** A pair as the rules name it: base/quote, such as ETH/USD or USD/VND. */
export type Pair = string;

export const RATE_SOURCE_KINDS = ['fixed', 'binance', 'coingecko', 'exchangerate-api'] as const;
export type RateSourceKind = (typeof RATE_SOURCE_KINDS)[number];

export interface RateSourceSpec {
  /** The name the logs, the metrics and each quote's provenance give the source. */
  id: string;
  kind: RateSourceKind;
  /** Where it is asked; none for `fixed`. */
  url?: string;
  /**
   * The pairs it gives, each with where its answer holds it: a Binance symbol (`ETHUSDT`), a CoinGecko coin id and
   * currency (`ethereum.usd`), an ExchangeRate-API currency code (`VND`), or for `fixed` the rate itself.
   */
  pairs: Record<Pair, string>;
  /** How often it is asked, and how long an answer may take (from the request to the body's last byte). */
  poll_ms: number;
  timeout_ms: number;
  /** A price older than this (by the source's own time) is not used; null: never stale (`fixed`). */
  stale_after_ms: number | null;
  /** The most an answer's body may hold (MAX_BYTES unless set). */
  max_bytes?: number;
}

/** One pair's price as a source gave it. */
export interface Price {
  pair: Pair;
  /** A positive decimal string, never a float. */
  value: string;
  /** The source's time for it: its own timestamp where its format has one, else when the answer arrived. */
  at: Date;
}

export interface RateSource {
  readonly spec: RateSourceSpec;
  /** Asks the source once; `now` is read when the answer has arrived. Throws a RateSourceError when it cannot. */
  fetch(signal: AbortSignal, now: () => Date): Promise<Price[]>;
}

/**
 * Which bound of docs/rates.md ("Reading an answer") an answer broke: the feed logs a source's failure again only when
 * this changes, however the hostile answers vary.
 */
export type AnswerBound = 'time-limit' | 'redirect' | 'size' | 'content-type' | 'encoding' | 'json' | 'price' | 'time';

/** A source that did not answer with prices: what it said, and when it asked to be asked again (HTTP Retry-After). */
export class RateSourceError extends Error {
  readonly retryAfterMs?: number;
  readonly bound?: AnswerBound;
  constructor(message: string, options: { retryAfterMs?: number; bound?: AnswerBound } = {}) {
    super(message);
    this.retryAfterMs = options.retryAfterMs;
    this.bound = options.bound;
  }
}

/** A ticker is a few hundred bytes, ExchangeRate-API's 160 currencies about 3 KB. */
export const MAX_BYTES = 16_384;
/** How far ahead of this gateway's clock a source's time may be (clocks differ by a few seconds). */
export const FUTURE_SKEW_MS = 60_000;

/** A plain decimal of bounded length: 15 digits are a quadrillion VND, 18 places a wei. No sign, no exponent. */
const PRICE = /^\d{1,15}(?:\.\d{1,18})?$/;
const ZERO = /^0+(?:\.0+)?$/;
/** Unix seconds: 13 digits reach past Date's end (8.64e12 s), so the check below refuses those as the future. */
const UNIX_SECONDS = /^\d{1,13}$/;

/** What a source wrote, short enough for a log line. */
const clip = (text: string, most = 40): string => (text.length > most ? `${text.slice(0, most)}… (${text.length} characters)` : text);
const shown = (value: unknown): string => clip(value instanceof JsonNumber ? value.text : (JSON.stringify(value) ?? String(value)));

/** A positive price as a decimal string: at the digits the source wrote, whether a JSON string or a JSON number. */
export function priceText(value: JsonValue | undefined, where: string): string {
  const text = typeof value === 'string' ? value : value instanceof JsonNumber ? value.text : undefined;
  if (text === undefined || !PRICE.test(text)) throw new RateSourceError(`${where} is not a plain decimal price of at most 15 digits and 18 places: ${shown(value)}`, { bound: 'price' });
  if (ZERO.test(text)) throw new RateSourceError(`${where} is not a positive price: ${shown(value)}`, { bound: 'price' });
  return text;
}

/**
 * A source's own time for its prices, in unix seconds, or when the answer arrived where it gives none. A time ahead of
 * the arrival by more than FUTURE_SKEW_MS is refused (such a price would never go stale), one within it taken as the
 * arrival; one outside Date's range is refused the same way, before any Date is made of it.
 */
export function timeOf(value: JsonValue | undefined, where: string, arrived: Date): Date {
  if (value === undefined || value === null) return arrived;
  const text = value instanceof JsonNumber ? value.text : undefined;
  if (text === undefined || !UNIX_SECONDS.test(text)) throw new RateSourceError(`${where} is not a time in unix seconds: ${shown(value)}`, { bound: 'time' });
  const ms = Number(text) * 1000;
  if (ms > arrived.getTime() + FUTURE_SKEW_MS) throw new RateSourceError(`${where} ${text} is more than ${FUTURE_SKEW_MS / 1000} s ahead of the gateway's clock`, { bound: 'time' });
  return new Date(Math.min(ms, arrived.getTime()));
}

/**
 * The bounds again, on what any kind of source returned (the book's door): a price that is not a bounded positive
 * decimal, or a time that is not a date or is ahead of the arrival, fails the answer instead of reaching a rule.
 */
export function checkPrices(prices: readonly Price[], arrived: Date): Price[] {
  for (const p of prices) {
    priceText(p.value, p.pair);
    const t = p.at instanceof Date ? p.at.getTime() : NaN;
    if (!Number.isFinite(t)) throw new RateSourceError(`${p.pair} has no valid time`, { bound: 'time' });
    if (t > arrived.getTime() + FUTURE_SKEW_MS) throw new RateSourceError(`${p.pair} is dated more than ${FUTURE_SKEW_MS / 1000} s ahead of the gateway's clock`, { bound: 'time' });
  }
  return [...prices];
}

/** `application/json`, with at most a charset, and that one UTF-8 (RFC 8259: JSON between systems is UTF-8). */
function checkContentType(header: string | null): void {
  const [media = '', ...parameters] = (header ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (media !== 'application/json') throw new RateSourceError(`the answer is ${header ? clip(header) : 'of no content type'}, not application/json`, { bound: 'content-type' });
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw new RateSourceError(`the answer is in ${clip(charset)}, not UTF-8`, { bound: 'encoding' });
}

/**
 * GETs JSON within the bounds of docs/rates.md ("Reading an answer"): no redirect followed, at most `max_bytes`, all of
 * it within the feed's timeout (the signal), application/json in UTF-8, numbers kept as written. A status other than 2xx
 * is an error carrying what the source's documented error body says.
 */
async function getJson(spec: RateSourceSpec, signal: AbortSignal, message: (body: JsonValue) => string | undefined): Promise<JsonValue> {
  // A redirect is not followed: a source moved to another host is a configuration to change, not a place to trust.
  const response = await fetch(spec.url!, { signal, redirect: 'manual', headers: { accept: 'application/json' } }).catch((error: unknown) => {
    throw new RateSourceError(signal.aborted ? 'no answer in time' : `cannot be reached: ${(error as Error).message}`, { bound: signal.aborted ? 'time-limit' : undefined });
  });
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    throw new RateSourceError(`HTTP ${response.status}: a redirect${location ? ` to ${clip(location, 200)}` : ''}, which is not followed`, { bound: 'redirect' });
  }
  const maxBytes = spec.max_bytes ?? MAX_BYTES;
  const bytes = await readCapped(response, maxBytes, signal, (why) =>
    why === 'size'
      ? new RateSourceError(`the answer is more than ${maxBytes} bytes`, { bound: 'size' })
      : new RateSourceError(why === 'time-limit' ? 'no answer in time' : 'the answer broke off', { bound: why === 'time-limit' ? 'time-limit' : undefined }),
  );
  if (!response.ok) {
    const text = new TextDecoder().decode(bytes);
    let body: JsonValue | undefined;
    try {
      body = parseJsonText(text);
    } catch {
      body = undefined;
    }
    const retryAfter = Number(response.headers.get('retry-after'));
    const said = ((body !== undefined && message(body)) || text).slice(0, 200);
    throw new RateSourceError(`HTTP ${response.status}: ${said}`, { retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined });
  }
  checkContentType(response.headers.get('content-type'));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new RateSourceError('the answer is not UTF-8', { bound: 'encoding' });
  }
  try {
    return parseJsonText(text);
  } catch (error) {
    throw new RateSourceError(`the answer is not JSON within bounds: ${(error as Error).message}`, { bound: 'json' });
  }
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);

/** A field of a parsed answer, or undefined. */
const field = (value: unknown, key: string): JsonValue | undefined => (isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined);

/**
 * Binance's public ticker, GET /api/v3/ticker/price (with `symbol=ETHUSDT`, `symbols=["ETHUSDT","BTCUSDT"]` or
 * neither): `{"symbol":"ETHUSDT","price":"3456.78000000"}`, or an array of them. No timestamp: the price is as of the
 * answer. Errors: `{"code":-1121,"msg":"Invalid symbol."}` with a 4xx, 429 and 418 with Retry-After.
 */
function binance(spec: RateSourceSpec): RateSource {
  return {
    spec,
    async fetch(signal, now) {
      const body = await getJson(spec, signal, (b) => (typeof field(b, 'msg') === 'string' ? `${String(field(b, 'code'))} ${String(field(b, 'msg'))}` : undefined));
      const at = now();
      const tickers = new Map((Array.isArray(body) ? body : [body]).map((t) => [field(t, 'symbol'), field(t, 'price')]));
      return Object.entries(spec.pairs).map(([pair, symbol]) => {
        if (!tickers.has(symbol)) throw new RateSourceError(`the answer has no ${symbol} (for ${pair})`);
        return { pair, value: priceText(tickers.get(symbol), symbol), at };
      });
    },
  };
}

/**
 * CoinGecko's GET /api/v3/simple/price?ids=…&vs_currencies=…&include_last_updated_at=true:
 * `{"ethereum":{"usd":3456.78,"last_updated_at":1764158400}}` (prices are JSON numbers). An unknown id is left out of
 * the answer. Errors: `{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit…"}}`, and for a
 * missing or wrong key `{"status":{"error_code":10002,…}}`.
 */
function coingecko(spec: RateSourceSpec): RateSource {
  return {
    spec,
    async fetch(signal, now) {
      const body = await getJson(spec, signal, (b) => {
        const status = field(b, 'status');
        return typeof field(status, 'error_message') === 'string' ? `${String(field(status, 'error_code'))} ${String(field(status, 'error_message'))}` : undefined;
      });
      const arrived = now();
      return Object.entries(spec.pairs).map(([pair, where]) => {
        const [id = '', currency = ''] = where.split('.');
        const coin = field(body, id);
        if (!isObject(coin) || !Object.hasOwn(coin, currency)) throw new RateSourceError(`the answer has no ${where} (for ${pair})`);
        return { pair, value: priceText(coin[currency], where), at: timeOf(coin.last_updated_at, `${id}.last_updated_at`, arrived) };
      });
    },
  };
}

/**
 * ExchangeRate-API's open access, GET https://open.er-api.com/v6/latest/USD: `{"result":"success",
 * "time_last_update_unix":1764115201,"base_code":"USD","rates":{"VND":26345.5,…}}`, updated once a day. Errors:
 * `{"result":"error","error-type":"unsupported-code"}` (and 429 when asked too often). The keyed API
 * (v6.exchangerate-api.com/v6/<key>/latest/USD) answers the same with `conversion_rates`.
 */
function exchangeRateApi(spec: RateSourceSpec): RateSource {
  return {
    spec,
    async fetch(signal, now) {
      const errorType = (b: unknown) => (typeof field(b, 'error-type') === 'string' ? String(field(b, 'error-type')) : undefined);
      const body = await getJson(spec, signal, errorType);
      if (field(body, 'result') !== 'success') throw new RateSourceError(`result ${shown(field(body, 'result'))}: ${errorType(body)?.slice(0, 200) ?? 'no error-type'}`);
      const updated = field(body, 'time_last_update_unix');
      const at = timeOf(updated, 'time_last_update_unix', now());
      const base = field(body, 'base_code');
      return Object.entries(spec.pairs).map(([pair, code]) => {
        if (pair.split('/')[0] !== base) throw new RateSourceError(`the answer is for base ${typeof base === 'string' ? clip(base) : shown(base)}, not ${pair}'s`);
        // The keyed v6 API names them conversion_rates.
        const rates = field(body, 'rates') ?? field(body, 'conversion_rates');
        if (!isObject(rates) || !Object.hasOwn(rates, code)) throw new RateSourceError(`the answer has no ${code} (for ${pair})`);
        return { pair, value: priceText(rates[code], code), at };
      });
    },
  };
}

/** The sandbox's rates (SANDBOX_RATE_*): the same every time, as of the gateway's start. */
function fixed(spec: RateSourceSpec, since: Date): RateSource {
  const prices = Object.entries(spec.pairs).map(([pair, value]) => ({ pair, value, at: since }));
  return { spec, fetch: () => Promise.resolve(prices) };
}

export function rateSource(spec: RateSourceSpec, since = new Date()): RateSource {
  switch (spec.kind) {
    case 'fixed':
      return fixed(spec, since);
    case 'binance':
      return binance(spec);
    case 'coingecko':
      return coingecko(spec);
    case 'exchangerate-api':
      return exchangeRateApi(spec);
  }
}
