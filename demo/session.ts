// The merchant portal's sessions (docs/security.md). A merchant signs in with its client id and client secret
// (checked by the gateway's token endpoint) and gets an HttpOnly, SameSite=Strict cookie naming a session held in
// this process's memory: a restart or sign-out ends it, and so do 8 hours. Its id names the environment
// (src/sandbox/services/merchant/credentials.ts): a session cookie of the other environment is refused, naming it. Every change the portal's API takes must
// come from the portal's own pages: same Origin, Content-Type application/json, and the session's CSRF token.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Environment } from '../src/contract/rules.js';
import type { MerchantClient } from '../src/merchant/index.js';
import { issueCredential, otherEnvironmentRefusal, ProblemError, requireJsonType, unauthorized } from './gateway-internals.js';

export const SESSION_COOKIE = 'pay_checkout_session';
export const CSRF_HEADER = 'X-CSRF-Token';
const SESSION_TTL_MS = 8 * 3_600_000;
/**
 * A merchant's sign-ins beyond this push out its own oldest sessions, so repeated sign-ins cannot grow memory without
 * bound, and no merchant signs another out (only a merchant's credentials start its sessions).
 */
export const SESSIONS_PER_MERCHANT = 20;

export interface Session {
  id: string;
  csrfToken: string;
  clientId: string;
  /** The sandbox merchant, whose merchant key the demo holds, so it can sign links for it. */
  sandbox: boolean;
  /** The SDK, signed in as this session's merchant: everything the portal shows comes through it. */
  client: MerchantClient;
  expiresAt: number;
}

/** What the pages learn of their session (GET /demo/api/session). */
export interface SessionView {
  client_id: string;
  sandbox: boolean;
  csrf_token: string;
  expires_at: string;
}

export type SessionEnv = { Bindings: Partial<HttpBindings>; Variables: { session: Session } };

export class Sessions {
  readonly #byId = new Map<string, Session>();

  constructor(
    /** The gateway's (GATEWAY_ENV): it names the sessions' ids. */
    readonly environment: Environment,
    readonly ttlMs = SESSION_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  start(c: Context, fields: Pick<Session, 'clientId' | 'sandbox' | 'client'>): Session {
    let own = [...this.#byId.values()].filter((s) => s.clientId === fields.clientId);
    for (const session of this.#byId.values()) if (session.expiresAt <= this.now()) this.#byId.delete(session.id);
    own = own.filter((s) => this.#byId.has(s.id));
    // Oldest first (a Map keeps the order of insertion).
    for (const session of own.slice(0, Math.max(0, own.length - SESSIONS_PER_MERCHANT + 1))) this.#byId.delete(session.id);
    const session = { ...fields, id: issueCredential(this.environment, 'portalSession'), csrfToken: randomBytes(32).toString('base64url'), expiresAt: this.now() + this.ttlMs };
    this.#byId.set(session.id, session);
    setCookie(c, SESSION_COOKIE, session.id, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      maxAge: Math.floor(this.ttlMs / 1000),
      secure: new URL(c.req.url).protocol === 'https:',
    });
    return session;
  }

  /** The live session of the request's cookie, if any. */
  of(c: Context): Session | undefined {
    const id = getCookie(c, SESSION_COOKIE);
    const session = id === undefined ? undefined : this.#byId.get(id);
    if (session && session.expiresAt <= this.now()) this.#byId.delete(session.id);
    return session && session.expiresAt > this.now() ? session : undefined;
  }

  end(c: Context, session: Session): void {
    this.#byId.delete(session.id);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
  }
}

export const sessionView = (s: Session): SessionView => ({
  client_id: s.clientId,
  sandbox: s.sandbox,
  csrf_token: s.csrfToken,
  expires_at: new Date(s.expiresAt).toISOString(),
});

/** The request's session, else a 401 that says how to get one (or, for a cookie of the other environment, why not). */
export function requireSession(sessions: Sessions): MiddlewareHandler<SessionEnv> {
  return async (c, next) => {
    const refusal = otherEnvironmentRefusal(getCookie(c, SESSION_COOKIE) ?? '', sessions.environment, 'The session cookie');
    if (refusal) throw unauthorized(refusal);
    const session = sessions.of(c);
    if (!session) throw unauthorized('Sign in to the merchant portal first (/signin): this needs the merchant\'s session.');
    c.set('session', session);
    await next();
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A change (any method but GET and HEAD) only from the portal's own pages: the browser's Origin is this server's,
 * the body is declared JSON (which another site's page cannot send without a CORS preflight this server never
 * answers), and, once signed in, the session's CSRF token is in X-CSRF-Token.
 */
export function ownPagesOnly(): MiddlewareHandler<SessionEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const own = new URL(c.req.url).host;
    const origin = c.req.header('Origin');
    const site = c.req.header('Sec-Fetch-Site');
    if (!origin || !URL.canParse(origin) || new URL(origin).host !== own || (site !== undefined && site !== 'same-origin')) {
      throw new ProblemError(403, `The portal takes changes from its own pages only: the request came from ${origin || 'no origin'}, not ${own}.`);
    }
    requireJsonType(c.req.header('Content-Type'));
    const session = c.get('session') as Session | undefined;
    if (session && !sameToken(c.req.header(CSRF_HEADER), session.csrfToken)) {
      throw new ProblemError(403, `${CSRF_HEADER} must carry the session's token (GET /demo/api/session).`);
    }
    await next();
  };
}

function sameToken(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Headers a reverse proxy adds: behind one, every client's request arrives from the loopback. */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'];

/**
 * Whether the request comes from this machine to a loopback name: the socket's peer is a loopback address, the
 * Host header names the loopback (so neither the network, with HOST opened, nor a DNS-rebound name passes), and no
 * proxy header says it came through a proxy on this machine (which may rewrite Host to the loopback, as nginx does).
 */
export function fromThisMachine(c: Context<SessionEnv>): boolean {
  if (PROXY_HEADERS.some((name) => c.req.header(name) !== undefined)) return false;
  const peer = c.env?.incoming?.socket.remoteAddress ?? '';
  const host = new URL(c.req.url).hostname;
  const loopbackPeer = /^(127\.|::1$|::ffff:127\.)/.test(peer);
  const loopbackHost = host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
  return loopbackPeer && loopbackHost;
}
