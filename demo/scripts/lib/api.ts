// JSON requests from the pages to the same origin (the demo's server side and the sandbox endpoints).
import type { FieldError, Problem } from '../../../src/contract/index.js';

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

export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: init.body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiError(0, { title: 'Network error', status: 0, detail: 'The sandbox server did not answer. Is `npm start` still running?' });
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (response.ok) return body as T;
  const problem = (typeof body === 'object' && body !== null && 'title' in body ? body : { title: response.statusText, status: response.status, detail: text }) as Problem;
  throw new ApiError(response.status, problem);
}
