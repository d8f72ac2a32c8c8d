// The transactions page's filters: what the merchant chose (kept in the page's address, so a reload or a shared
// link shows the same list), and the query the read API takes for them (GET /api/paymentLink).
import { ASSET_CODE, LINK_SORTS, NETWORK_ID, type ChainNetwork, type LinkSort } from '../../../src/contract/index.js';

export interface Filters {
  /** What the customer quotes: see `q=` in docs/api.md, "Listing links". */
  q: string;
  /** What became of the order: a link status, with paid orders told apart by how much of their money went back. */
  status: '' | OrderStatus;
  /** `true`: only orders holding money not yet returned; combines with the status. */
  held: '' | 'true';
  /** `USDT:TRON` and the like. */
  asset: string;
  /** Days in the merchant's own time zone, both included: `2026-11-22`. */
  from: string;
  to: string;
  /** The list's order; '' is the read API's default, newest first. */
  sort: '' | LinkSort;
}

export type OrderStatus = 'active' | 'paid' | 'partly_refunded' | 'refunded' | 'expired' | 'cancelled';

export const NO_FILTERS: Filters = { q: '', status: '', held: '', asset: '', from: '', to: '', sort: '' };

export const STATUS_CHOICES: readonly { value: '' | OrderStatus; label: string }[] = [
  { value: '', label: 'Any status' },
  { value: 'active', label: 'Awaiting payment' },
  { value: 'paid', label: 'Paid' },
  { value: 'partly_refunded', label: 'Partly refunded' },
  { value: 'refunded', label: 'Refunded' },
  { value: 'expired', label: 'Expired' },
  { value: 'cancelled', label: 'Cancelled' },
];

/** Each status as the read API asks for it: a paid order by how much went back (`refunded=`). */
const STATUS_QUERY: Record<OrderStatus, Record<string, string>> = {
  active: { status: 'active' },
  paid: { status: 'paid', refunded: 'none' },
  partly_refunded: { status: 'paid', refunded: 'partly' },
  refunded: { status: 'paid', refunded: 'fully' },
  expired: { status: 'expired' },
  cancelled: { status: 'cancelled' },
};

/** Every coin of the gateway's networks (GET /sandbox/chain), as the filter offers them. */
export function assetChoices(networks: readonly ChainNetwork[]): { value: string; label: string }[] {
  return [{ value: '', label: 'Any coin' }, ...networks.flatMap((n) => n.assets.map((a) => ({ value: `${a.asset}:${n.network}`, label: a.label })))];
}

/** `USDT:TRON`: an asset and its network in the contract's forms of their codes (which exist is the gateway's to say). */
function isAssetOnNetwork(value: string): boolean {
  const [asset = '', network = '', ...rest] = value.split(':');
  return !rest.length && ASSET_CODE.test(asset) && NETWORK_ID.test(network);
}

const DAY = /^(\d{4})-(\d\d)-(\d\d)$/;

export function filtersFrom(search: URLSearchParams): Filters {
  const status = search.get('status') ?? '';
  // `status=held` was the page's address for held money before it combined with a status.
  const held = search.get('held') === 'true' || status === 'held' ? 'true' : '';
  const asset = search.get('asset') ?? '';
  const day = (name: string) => (DAY.test(search.get(name) ?? '') ? search.get(name)! : '');
  return {
    q: search.get('q')?.trim() ?? '',
    status: Object.hasOwn(STATUS_QUERY, status) ? (status as OrderStatus) : '',
    held,
    asset: isAssetOnNetwork(asset) ? asset : '',
    from: day('from'),
    to: day('to'),
    sort: (LINK_SORTS as readonly string[]).includes(search.get('sort') ?? '') && search.get('sort') !== '-created_at' ? (search.get('sort') as LinkSort) : '',
  };
}

/** The page's address for these filters: only what is set. */
export function searchOf(filters: Filters): URLSearchParams {
  return new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== ''));
}

/** Midnight starting this day (or the next, `after`) where the browser is, as an instant. */
function midnight(day: string, after = false): string {
  const [, y, m, d] = DAY.exec(day)!;
  return new Date(Number(y), Number(m) - 1, Number(d) + (after ? 1 : 0)).toISOString();
}

/** The read API's query for these filters, a page size and a cursor. */
export function apiQuery(filters: Filters, page: { limit: number; cursor?: string }): URLSearchParams {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if (filters.q) query.set('q', filters.q);
  if (filters.status) for (const [name, value] of Object.entries(STATUS_QUERY[filters.status])) query.set(name, value);
  if (filters.held) query.set('held', 'true');
  if (filters.asset) {
    const [asset, network] = filters.asset.split(':');
    query.set('asset', asset!);
    query.set('network', network!);
  }
  if (filters.from) query.set('created_from', midnight(filters.from));
  if (filters.to) query.set('created_before', midnight(filters.to, true));
  if (filters.sort) query.set('sort', filters.sort);
  if (page.cursor) query.set('cursor', page.cursor);
  return query;
}

export const PAGE_SIZES = [10, 25, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 25;
/** A cursor as the read API writes them (base64url); the address keeps those of the pages before, `.`-separated. */
const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;

/** Where the list is: its page size and the cursors of the pages before this one (none on the first). */
export interface ListPage {
  limit: number;
  /** `[undefined, c2, c3]` on page 3: each page's cursor, the first page's none. */
  cursors: (string | undefined)[];
}

/** The page the address names (`per=50&pages=c2.c3`), or the first at the default size for anything else. */
export function pageFrom(search: URLSearchParams): ListPage {
  const per = Number(search.get('per'));
  const limit = (PAGE_SIZES as readonly number[]).includes(per) ? per : DEFAULT_PAGE_SIZE;
  const pages = (search.get('pages') ?? '').split('.').filter(Boolean);
  return { limit, cursors: pages.length <= 100 && pages.every((c) => CURSOR.test(c)) ? [undefined, ...pages] : [undefined] };
}

/** The page's address for these filters and this page: only what differs from the first page at the default size. */
export function addressOf(filters: Filters, page: ListPage): URLSearchParams {
  const search = searchOf(filters);
  if (page.limit !== DEFAULT_PAGE_SIZE) search.set('per', String(page.limit));
  const pages = page.cursors.filter((c): c is string => c !== undefined);
  if (pages.length) search.set('pages', pages.join('.'));
  return search;
}
