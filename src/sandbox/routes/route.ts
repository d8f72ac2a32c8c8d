// One declaration per route: its method, its path (OpenAPI's `{name}` form), what the OpenAPI document says of it,
// and its handler, built from the services it uses. app.ts mounts the declarations behind the middleware their `auth`
// names, openapi/document.ts describes them, and test/gateway/routes.test.ts sends each a request to hold it to them.
// What a route declares it reads is read here, once, so its handler is given the JSON body and the query parsed
// (a form is read by its own handler: the token endpoint's and the claim page's answer in their own forms), and an
// idempotent route's Idempotency-Key scope, its answer sent with Idempotent-Replayed when it was one.
import type { HttpBindings } from '@hono/node-server';
import type { Context, Handler, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type * as z from 'zod/mini';
import { fieldErrors } from '../../contract/index.js';
import { malformed } from '../errors.js';
import type { BearerEnv } from '../http/bearer.js';
import { readJsonObject, type JsonBodyOptions } from '../http/body.js';
import { parseWith } from '../http/problem.js';
import type { SignedBodyEnv } from '../http/signed-body.js';
import type { IdempotencyScope } from '../services/merchant/idempotency.js';
import { idempotencyScope, replayHeaders } from './replay.js';

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

/**
 * What a route serving a file of the build answers (http/built-file.ts): the file, 304 to a copy its ETag says is
 * current, 503 until `npm run build` has made it; and the route's own `errors`.
 */
export const builtFileAnswers = (type: string, description: string, errors: number[] = []) => ({
  ok: { 200: media(type, description), 304: null },
  errors: [...errors, 503],
});

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
  /** How the JSON body is read (http/body.ts): `optional`, an empty one is `{}`; `untyped`, any Content-Type. */
  read?: JsonBodyOptions;
  /** The query string, as an object schema. */
  query?: z.ZodMiniType;
  /** A query that does not parse is a 400, its form wrong (the events API), rather than the 422 of a broken rule. */
  malformedQuery?: boolean;
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

/** What the handler is given of what its route declares: the body and query parsed, and the Idempotency-Key's scope. */
export interface Input<R extends RouteSpec> {
  body: R extends { body: infer B extends z.ZodMiniType } ? z.output<B> : undefined;
  query: R extends { query: infer Q extends z.ZodMiniType } ? z.output<Q> : undefined;
  idempotency: R extends { idempotent: true } ? Omit<IdempotencyScope, 'merchantId'> : undefined;
}

/** An idempotent route answers what its service did and whether a key replayed it; route() sends it. */
export interface Replayable {
  value: unknown;
  replayed: boolean;
}

type AuthOf<R> = R extends { auth: infer A extends Auth } ? A : undefined;
type Answer<R> = R extends { idempotent: true } ? Promise<Replayable> : Response | Promise<Response>;

export function route<S, const P extends string, R extends RouteSpec>(
  method: Method,
  path: P,
  spec: R,
  handler: (services: S) => (c: Context<RouteEnv<AuthOf<R>>, HonoPath<P>>, input: Input<R>) => Answer<R>,
): Route<S> {
  const statuses = Object.keys(spec.ok).map(Number);
  // An idempotent answer has one status, the same first time and replay alike.
  if (spec.idempotent && statuses.length !== 1) throw new Error(`${method} ${path}: an idempotent route answers one status`);
  return {
    method,
    path,
    spec,
    handler: (services) => {
      const handle = handler(services) as unknown as (c: Context, input: Input<RouteSpec>) => Promise<Response | Replayable>;
      return async (c: Context) => {
        const answer = await handle(c, await inputOf(c, spec));
        if (!spec.idempotent) return answer as Response;
        const { value, replayed } = answer as Replayable;
        return c.json(value, statuses[0] as ContentfulStatusCode, replayHeaders(replayed));
      };
    },
  };
}

async function inputOf(c: Context, spec: RouteSpec): Promise<Input<RouteSpec>> {
  // A signed body was read, checked and parsed by its middleware (http/signed-body.ts); the key is scoped to it as sent.
  let raw: Record<string, unknown> = {};
  let body: unknown;
  if (spec.auth === 'signature') {
    raw = (c as Context<SignedBodyEnv>).var.body;
    body = (c as Context<SignedBodyEnv>).var.request;
  } else if (spec.body && !('form' in spec.body)) {
    raw = await readJsonObject(c, spec.read);
    body = parseWith(spec.body, raw);
  }
  return { body, query: spec.query && parseQuery(spec.query, c.req.query(), spec.malformedQuery), idempotency: spec.idempotent ? idempotencyScope(c, raw) : undefined } as Input<RouteSpec>;
}

function parseQuery(schema: z.ZodMiniType, query: Record<string, string>, malformedQuery = false): unknown {
  if (!malformedQuery) return parseWith(schema, query);
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  throw malformed(`The query has ${errors.length} invalid parameter${errors.length === 1 ? '' : 's'}: ${errors.map((e) => e.path).join(', ')}.`, errors);
}
