// Public price sources on loopback, answering in their documented formats (src/sandbox/rates/sources.ts names each):
// Binance's GET /api/v3/ticker/price, CoinGecko's GET /api/v3/simple/price, ExchangeRate-API's GET /v6/latest/USD.
// Each source's answer is set by the test (a body in the documented form, a documented error, or no answer at all),
// and every request is counted, so a test can see a source asked, and one still hanging. A hostile source writes its
// answer itself (`{ raw }`): bytes, headers and pauses of its choosing.
import { writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as it is: JSON text written as the source writes it (numbers with the digits it gives). */
  body: string | Uint8Array;
}

/** An answer the source writes itself, as it likes. */
export interface RawAnswer {
  raw: (response: ServerResponse) => void;
}

/** What a source does with a request: answer, never answer (`'hang'`), or write what it likes. */
export type Responder = (url: URL) => Answer | RawAnswer | 'hang';

export interface PriceSource {
  url: string;
  /** Requests received, and those left unanswered and still open. */
  readonly requests: number;
  readonly hanging: number;
  /** Resolves when the connection of the request after the `count`th so far (1: the next) has closed. */
  closed(count?: number): Promise<void>;
  /** Resolves when `total` requests have been received in all (at once if they have). */
  asked(total: number): Promise<void>;
  respond(responder: Responder): void;
  close(): Promise<void>;
}

/** Binance, CoinGecko and ExchangeRate-API where a gateway asks them for USDT, ETH and BTC, each hanging until told what to answer. */
export async function startMarketSources(): Promise<Record<'binance' | 'coingecko' | 'fx', PriceSource>> {
  return {
    binance: await startPriceSource('/api/v3/ticker/price?symbols=%5B%22ETHUSDT%22,%22BTCUSDT%22%5D', () => 'hang'),
    coingecko: await startPriceSource('/api/v3/simple/price?ids=tether,ethereum,bitcoin&vs_currencies=usd&include_last_updated_at=true', () => 'hang'),
    fx: await startPriceSource('/v6/latest/USD', () => 'hang'),
  };
}

/**
 * Writes a RATE_SOURCES file (the sources, assets and pairs as an operator writes them) into `folder`; its path. Named
 * apart from the fixed rates.json that test/helpers/live.ts writes into the same folder.
 */
export async function ratesFile(folder: string, rules: Record<string, unknown>): Promise<string> {
  const file = join(folder, 'market-rates.json');
  await writeFile(file, JSON.stringify(rules));
  return file;
}

export async function startPriceSource(path: string, responder: Responder): Promise<PriceSource> {
  let respond = responder;
  let requests = 0;
  const open = new Set<ServerResponse>();
  const waiting = new Map<number, (() => void)[]>();
  const arrivals = new Set<{ total: number; resolve: () => void }>();
  const server = createServer((request, response) => {
    requests += 1;
    const number = requests;
    for (const arrival of arrivals) {
      if (arrival.total > requests) continue;
      arrivals.delete(arrival);
      arrival.resolve();
    }
    response.on('close', () => {
      for (const resolve of waiting.get(number) ?? []) resolve();
      waiting.delete(number);
    });
    const answer = respond(new URL(request.url ?? '/', 'http://127.0.0.1'));
    if (typeof answer === 'object' && 'raw' in answer) {
      // A hostile writer's pauses may outlive the request: a write after the close is no error of the test's.
      response.on('error', () => undefined);
      answer.raw(response);
      return;
    }
    if (answer === 'hang') {
      open.add(response);
      response.on('close', () => open.delete(response));
      return;
    }
    response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    get requests() {
      return requests;
    },
    get hanging() {
      return open.size;
    },
    respond(next) {
      respond = next;
    },
    closed(count = 1) {
      const number = requests + count;
      return new Promise<void>((resolve) => waiting.set(number, [...(waiting.get(number) ?? []), resolve]));
    },
    asked(total) {
      return total <= requests ? Promise.resolve() : new Promise<void>((resolve) => arrivals.add({ total, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Binance's ticker: one `{symbol, price}` for `symbol=`, an array for `symbols=` (prices are strings, 8 places). */
export const binanceTicker =
  (prices: Record<string, string>): Responder =>
  (url) => {
    const one = url.searchParams.get('symbol');
    const tickers = Object.entries(prices).map(([symbol, price]) => ({ symbol, price }));
    if (one) {
      const ticker = tickers.find((t) => t.symbol === one);
      return ticker ? { body: JSON.stringify(ticker) } : BINANCE_INVALID_SYMBOL;
    }
    const wanted = url.searchParams.get('symbols');
    const symbols = wanted ? (JSON.parse(wanted) as string[]) : undefined;
    return { body: JSON.stringify(symbols ? tickers.filter((t) => symbols.includes(t.symbol)) : tickers) };
  };

/** Binance's documented errors. */
export const BINANCE_INVALID_SYMBOL: Answer = { status: 400, body: '{"code":-1121,"msg":"Invalid symbol."}' };
export const BINANCE_TOO_MANY: Answer = {
  status: 429,
  headers: { 'retry-after': '7' },
  body: '{"code":-1003,"msg":"Too many requests; current limit of IP(127.0.0.1) is 6000 requests per minute. Please use the websocket for live updates to avoid polling the API."}',
};

/**
 * CoinGecko's simple price: `{"<id>":{"<currency>":<number>,"last_updated_at":<unix seconds>}}` for the ids and
 * currencies asked; an unknown id is left out. `prices` holds each number as the JSON text it is written with.
 */
export const coingeckoSimplePrice =
  (prices: Record<string, Record<string, string>>, updatedAt: () => Date): Responder =>
  (url) => {
    const ids = (url.searchParams.get('ids') ?? '').split(',');
    const currencies = (url.searchParams.get('vs_currencies') ?? '').split(',');
    const withTime = url.searchParams.get('include_last_updated_at') === 'true';
    const coins = ids
      .filter((id) => prices[id])
      .map((id) => {
        const fields = currencies.filter((c) => prices[id]![c] !== undefined).map((c) => `"${c}":${prices[id]![c]}`);
        if (withTime) fields.push(`"last_updated_at":${Math.floor(updatedAt().getTime() / 1000)}`);
        return `"${id}":{${fields.join(',')}}`;
      });
    return { body: `{${coins.join(',')}}` };
  };

/** CoinGecko's documented errors. */
export const COINGECKO_RATE_LIMIT: Answer = {
  status: 429,
  body: `{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit. Please visit https://www.coingecko.com/en/api/pricing to subscribe to our API plans for higher rate limits."}}`,
};

/** ExchangeRate-API's open access latest rates for base USD (`rates` as JSON number text), updated at `updatedAt`. */
export const exchangeRateLatest =
  (rates: Record<string, string>, updatedAt: () => Date): Responder =>
  (url) => {
    const base = url.pathname.split('/').at(-1);
    if (base !== 'USD') return ER_API_UNSUPPORTED;
    const at = Math.floor(updatedAt().getTime() / 1000);
    const body = `{"result":"success","provider":"https://www.exchangerate-api.com","documentation":"https://www.exchangerate-api.com/docs/free","terms_of_use":"https://www.exchangerate-api.com/terms","time_last_update_unix":${at},"time_last_update_utc":"${new Date(at * 1000).toUTCString()}","time_next_update_unix":${at + 86_400},"time_eol_unix":0,"base_code":"USD","rates":{"USD":1,${Object.entries(rates)
      .map(([code, rate]) => `"${code}":${rate}`)
      .join(',')}}}`;
    return { body };
  };

/** ExchangeRate-API's documented errors. */
export const ER_API_UNSUPPORTED: Answer = { status: 404, body: '{"result":"error","error-type":"unsupported-code"}' };
export const ER_API_RATE_LIMITED: Answer = { status: 429, body: '{"result":"error","error-type":"rate-limited"}' };

/** A JSON answer that never ends: spaces for as long as the client reads, to try a reader's size bound. */
export const ENDLESS_JSON: RawAnswer = {
  raw: (response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const spaces = Buffer.alloc(65_536, 0x20);
    const pump = () => {
      while (!response.destroyed && response.write(spaces));
    };
    response.on('drain', pump);
    pump();
  },
};
