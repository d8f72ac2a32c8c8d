// JSON requests from the pages to the same origin (the demo's server side and the sandbox endpoints). A change to
// the portal's API carries the session's CSRF token; an answer that the session is gone leads to the sign-in.
import type { FieldError, Problem } from '../../../src/contract/index.js';
import type { SessionView } from '../../session.js';

/** An error answer, with the problem details the server sent. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiError';
  }

  get fieldErrors(): FieldError[] {
    return this.problem.errors ?? [];
  }
}

const PORTAL_API = '/demo/api/';
let session: Promise<SessionView> | undefined;

/** This page's session (asked for once): who is signed in, and the token every change must carry. */
export const currentSession = (): Promise<SessionView> => (session ??= api<SessionView>(`${PORTAL_API}session`));

/** Where the sign-in page sends the merchant back to. */
export const signInUrl = () => `/signin?next=${encodeURIComponent(location.pathname + location.search)}`;

export interface ApiInit {
  method?: string;
  body?: unknown;
  /** A portal API route that needs no session (the redirect check of the success and failure pages). */
  anonymous?: boolean;
  /** Sent as `Idempotency-Key`: the same key, sent again, makes nothing twice (docs/api.md, "Idempotency"). */
  idempotencyKey?: string;
}

export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = {};
  if (method !== 'GET') headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && path.startsWith(PORTAL_API) && !init.anonymous) headers['X-CSRF-Token'] = (await currentSession()).csrf_token;
  if (init.idempotencyKey) headers['Idempotency-Key'] = init.idempotencyKey;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  } catch {
    throw new ApiError(0, { title: 'Network error', status: 0, detail: 'The sandbox server did not answer: check that it is still running (npm start), then retry.' });
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (response.ok) return body as T;
  // The session ran out (or the server restarted): sign in again, and come back here.
  if (response.status === 401 && path.startsWith(PORTAL_API)) location.assign(signInUrl());
  const problem = (typeof body === 'object' && body !== null && 'title' in body ? body : { title: response.statusText, status: response.status, detail: text }) as Problem;
  throw new ApiError(response.status, problem);
}
