// The merchant API's routes on one of its own resources, named by the one parameter of the path: Bearer, so the
// merchant is the token's, and its service answers 404 for another merchant's resource as for one that does not exist.
// A read and an action are each declared here once, so that every resource's read and action answer alike; a route
// names the service method it calls, bound to its service (services are classes), which is given the merchant and the id.
import type * as z from 'zod/mini';
import type { IdempotencyScope } from '../services/merchant/idempotency.js';
import { route, type Body, type Replayable, type Route } from './route.js';

/** The name in a path's `{name}`: Hono matched the path, so a request to the route has it. */
function paramOf(path: string): string {
  const [name, ...more] = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  if (name === undefined || more.length > 0) throw new Error(`${path}: a merchant resource's route names it, and only it, in its path`);
  return name;
}

/** GET of the merchant's resources a query names (a page of them, an order's): 200 with what its service finds. */
export function merchantList<S, Q extends z.ZodMiniType>(
  path: string,
  { summary, query, malformedQuery, ok, errors }: { summary: string; query: Q; malformedQuery?: true; ok: { 200: z.ZodMiniType }; errors: number[] },
  list: (services: S) => (merchantId: string, query: z.output<Q>) => Promise<unknown>,
): Route<S> {
  return route('get', path, { tag: 'Merchant', summary, auth: 'bearer', query, ...(malformedQuery && { malformedQuery }), ok, errors }, (services: S) => {
    const listOf = list(services);
    return async (c, input) => c.json(await listOf(c.var.merchantId, input.query));
  });
}

/** GET of one resource, 200 with it as its service reads it. */
export function merchantRead<S>(
  path: string,
  { summary, ok }: { summary: string; ok: { 200: z.ZodMiniType } },
  read: (services: S) => (merchantId: string, id: string) => Promise<unknown>,
): Route<S> {
  const param = paramOf(path);
  return route('get', path, { tag: 'Merchant', summary, auth: 'bearer', ok, errors: [404] }, (services: S) => {
    const readOne = read(services);
    return async (c) => c.json(await readOne(c.var.merchantId, c.req.param(param)!));
  });
}

/**
 * POST of what the merchant decides about one resource (cancel, retry, accept): idempotent, one status; 409 when the
 * resource is past the point where that decision can be made.
 */
export function merchantAction<S>(
  path: string,
  { summary, ok }: { summary: string; ok: { 200: Body } | { 201: Body } },
  act: (services: S) => (merchantId: string, id: string, idempotency: Omit<IdempotencyScope, 'merchantId'>) => Promise<Replayable>,
): Route<S> {
  const param = paramOf(path);
  return route('post', path, { tag: 'Merchant', summary, auth: 'bearer', idempotent: true, ok, errors: [404, 409] }, (services: S) => {
    const actOn = act(services);
    return (c, { idempotency }) => actOn(c.var.merchantId, c.req.param(param)!, idempotency);
  });
}
