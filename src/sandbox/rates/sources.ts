// The rate source port: a public price source, asked at its URL, answers prices of pairs ("ETH/USD": how many USD one
// ETH is worth) as decimal strings, each with the time the source says it is from. One implementation per documented
// response format (docs/rates.md, "Sources"): Binance's public ticker, CoinGecko's simple price, ExchangeRate-API's
// open access latest rates (open.er-api.com), and the sandbox's fixed rates. Nothing here runs on a request's path:
// services/rates/rate-feed.ts asks the sources on their schedule.

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
  /** How often it is asked, and how long an answer may take. */
  poll_ms: number;
  timeout_ms: number;
  /** A price older than this (by the source's own time) is not used; null: never stale (`fixed`). */
  stale_after_ms: number | null;
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

/** A source that did not answer with prices: what it said, and when it asked to be asked again (HTTP Retry-After). */
export class RateSourceError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

const DECIMAL = /^\d+(\.\d+)?$/;
const NUMBER = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** A positive price as a decimal string: sources that answer JSON numbers are read at the digits they wrote. */
export function priceText(value: unknown, where: string): string {
  let text: string | undefined;
  if (typeof value === 'string' && DECIMAL.test(value)) text = value;
  else if (typeof value === 'number' && Number.isFinite(value) && value > 0) text = plainDecimal(String(value));
  if (text === undefined || /^0+(\.0+)?$/.test(text)) throw new RateSourceError(`${where} is not a positive price: ${JSON.stringify(value)}`);
  return text;
}

/**
 * A number's shortest round-trip text (what JSON.parse read: the digits the source wrote, up to 17 of them) without
 * an exponent: 1.5e-7 → 0.00000015.
 */
function plainDecimal(text: string): string {
  const match = NUMBER.exec(text)!;
  const digits = `${match[1]}${match[2] ?? ''}`;
  const point = match[1]!.length + Number(match[3] ?? 0);
  const whole = point <= 0 ? '0' : digits.slice(0, point).padEnd(point, '0');
  const fraction = point <= 0 ? '0'.repeat(-point) + digits : digits.slice(point);
  const trimmed = fraction.replace(/0+$/, '');
  return `${whole.replace(/^0+(?=\d)/, '')}${trimmed ? `.${trimmed}` : ''}`;
}

/** GETs JSON; a status other than 2xx is an error carrying what the source's documented error body says. */
async function getJson(url: string, signal: AbortSignal, message: (body: unknown) => string | undefined): Promise<unknown> {
  const response = await fetch(url, { signal, headers: { accept: 'application/json' } }).catch((error: unknown) => {
    throw new RateSourceError(signal.aborted ? 'no answer in time' : `cannot be reached: ${(error as Error).message}`);
  });
  const text = await response.text().catch(() => {
    throw new RateSourceError(signal.aborted ? 'no answer in time' : 'the answer broke off');
  });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after'));
    const said = (body !== undefined && message(body)) || text.slice(0, 200);
    throw new RateSourceError(`HTTP ${response.status}: ${said}`, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined);
  }
  if (body === undefined) throw new RateSourceError('the answer is not JSON');
  return body;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field of a parsed answer, or undefined. */
const field = (value: unknown, key: string): unknown => (isObject(value) ? value[key] : undefined);

/**
 * Binance's public ticker, GET /api/v3/ticker/price (with `symbol=ETHUSDT`, `symbols=["ETHUSDT","BTCUSDT"]` or
 * neither): `{"symbol":"ETHUSDT","price":"3456.78000000"}`, or an array of them. No timestamp: the price is as of the
 * answer. Errors: `{"code":-1121,"msg":"Invalid symbol."}` with a 4xx, 429 and 418 with Retry-After.
 */
function binance(spec: RateSourceSpec): RateSource {
  return {
    spec,
    async fetch(signal, now) {
      const body = await getJson(spec.url!, signal, (b) => (typeof field(b, 'msg') === 'string' ? `${String(field(b, 'code'))} ${String(field(b, 'msg'))}` : undefined));
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
      const body = await getJson(spec.url!, signal, (b) => {
        const status = field(b, 'status');
        return typeof field(status, 'error_message') === 'string' ? `${String(field(status, 'error_code'))} ${String(field(status, 'error_message'))}` : undefined;
      });
      const arrived = now();
      return Object.entries(spec.pairs).map(([pair, where]) => {
        const [id = '', currency = ''] = where.split('.');
        const coin = field(body, id);
        if (!isObject(coin) || !(currency in coin)) throw new RateSourceError(`the answer has no ${where} (for ${pair})`);
        const updated = coin.last_updated_at;
        return { pair, value: priceText(coin[currency], where), at: typeof updated === 'number' ? new Date(updated * 1000) : arrived };
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
      const body = await getJson(spec.url!, signal, errorType);
      if (field(body, 'result') !== 'success') throw new RateSourceError(`result ${JSON.stringify(field(body, 'result'))}: ${errorType(body) ?? 'no error-type'}`);
      const updated = field(body, 'time_last_update_unix');
      const at = typeof updated === 'number' ? new Date(updated * 1000) : now();
      const base = field(body, 'base_code');
      return Object.entries(spec.pairs).map(([pair, code]) => {
        if (pair.split('/')[0] !== base) throw new RateSourceError(`the answer is for base ${String(base)}, not ${pair}'s`);
        // The keyed v6 API names them conversion_rates.
        const rates = field(body, 'rates') ?? field(body, 'conversion_rates');
        if (!isObject(rates) || !(code in rates)) throw new RateSourceError(`the answer has no ${code} (for ${pair})`);
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
