// One declaration per route: its method, its path (OpenAPI's `{name}` form), what the OpenAPI document says of it,
// and its handler, built from the services it uses. app.ts mounts the declarations behind the middleware their `auth`
// names, openapi/document.ts describes them, and test/gateway/routes.test.ts sends each a request to hold it to them.
import type { HttpBindings } from '@hono/node-server';
import type { Context, Handler, MiddlewareHandler } from 'hono';
import type * as z from 'zod/mini';
import type { BearerEnv } from '../http/bearer.js';
import type { SignedBodyEnv } from '../http/signed-body.js';

export type Method = 'get' | 'post' | 'delete';
export type Tag = 'Merchant' | 'Webhooks' | 'Checkout' | 'Sandbox' | 'Assets' | 'Operations';
/** `bearer`: an access token; `signature`: svc_key and signature_hash in the body; `client`: the token endpoint's client credentials. */
export type Auth = 'bearer' | 'signature' | 'client';

/** An answer that is not JSON: its media type, described in words. */
export interface Media {
  type: string;
  description: string;
}
export const media = (type: string, description: string): Media => ({ type, description });

/** What an answer carries: a contract schema (JSON), or another media type. */
export type Body = z.ZodMiniType | Media;
/** Every zod schema carries `_zod`. */
export const isMedia = (body: Body): body is Media => !('_zod' in body);

export interface RouteSpec {
  tag: Tag;
  summary: string;
  auth?: Auth;
  /** A JSON body, or a form (`{ form }`). */
  body?: z.ZodMiniType | { form: z.ZodMiniType };
  /** The query string, as an object schema. */
  query?: z.ZodMiniType;
  /** Path parameters that are not plain strings. */
  params?: Record<string, z.ZodMiniType>;
  /** Takes an `Idempotency-Key` (the same key and body answer the first answer again). */
  idempotent?: boolean;
  /** Honours `Last-Event-ID` (an event stream). */
  lastEventId?: boolean;
  /** Successful answers by status; `null` for an answer without a body. */
  ok: Record<number, Body | null>;
  /** A body limit below the gateway's 256 KiB, for a route that needs little (413 past it; docs/security.md, "Limits"). */
  maxBodyBytes?: number;
  /** Error statuses this route answers with problem+json, besides the ones its kind implies. */
  errors?: number[];
}

/** What the OpenAPI document and the tests read of a route. */
export interface Declaration {
  method: Method;
  path: string;
  spec: RouteSpec;
}

export interface Route<S> extends Declaration {
  /** Builds the handler from the services the route uses, once per app. */
  handler: (services: S) => Handler;
}

/** The routes of one resource. */
export interface RouteGroup<S> {
  /** Middleware for every request under a path (`/api/checkout/*`), routed or not: CORS answers preflights and 404s too. */
  use?: [path: string, middleware: MiddlewareHandler];
  routes: Route<S>[];
}

/** Hono's form of a path: `{name}` becomes `:name`. */
type HonoPath<P extends string> = P extends `${infer Head}{${infer Name}}${infer Tail}` ? `${Head}:${Name}${HonoPath<Tail>}` : P;
export const honoPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** What the middleware of `auth` puts in `c.var`, beside Node's request and response (`c.env`). */
type RouteEnv<A> = (A extends 'bearer' ? BearerEnv : A extends 'signature' ? SignedBodyEnv : object) & { Bindings: HttpBindings };

export function route<S, const P extends string, A extends Auth | undefined = undefined>(
  method: Method,
  path: P,
  spec: RouteSpec & { auth?: A },
  handler: (services: S) => (c: Context<RouteEnv<A>, HonoPath<P>>) => Response | Promise<Response>,
): Route<S> {
  return { method, path, spec, handler: handler as (services: S) => Handler };
}
