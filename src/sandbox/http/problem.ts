// RFC 9457 problem details: every error of the merchant and checkout APIs leaves through here.
import type { Context } from 'hono';
import type * as z from 'zod/mini';
import { fieldErrors, type FieldError, type Problem } from '../../contract/index.js';
import { GatewayError, invalid, type FailureKind } from '../errors.js';
import { isTransient } from '../storage/database.js';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  toJSON(): Problem {
    return { title: TITLES[this.status] ?? 'Error', status: this.status, detail: this.detail, ...(this.errors && { errors: this.errors }) };
  }
}

export const badRequest = (detail: string) => new ProblemError(400, detail);
export const unauthorized = (detail: string, headers?: Record<string, string>) => new ProblemError(401, detail, undefined, headers);

/** The HTTP status of each kind of failure the services report (errors.ts). */
const STATUS: Record<FailureKind, number> = { invalid: 422, malformed: 400, not_found: 404, conflict: 409, gone: 410, unavailable: 503, too_many: 429 };
/** A 503 says when to ask again: a node's network is followed every second or so. */
const RETRY_AFTER_SECONDS = 5;

/** Any error a request can end with, as problem details; undefined for an unexpected one (a 500, logged). */
export function asProblem(error: unknown): ProblemError | undefined {
  if (error instanceof ProblemError) return error;
  if (error instanceof GatewayError) {
    const retryAfter = error.retryAfterSeconds ?? (error.kind === 'unavailable' ? RETRY_AFTER_SECONDS : undefined);
    const headers = retryAfter === undefined ? undefined : { 'Retry-After': String(retryAfter) };
    return new ProblemError(STATUS[error.kind], error.detail, error.errors, headers);
  }
  // The database is restarting or failing over (its connections were lost and retried, or a COMMIT went unanswered):
  // nothing the client sent is wrong, and the same request with the same Idempotency-Key is safe in a moment.
  if (isTransient(error)) {
    return new ProblemError(503, 'The database is unavailable for a moment; send the same request again, with the same Idempotency-Key.', undefined, {
      'Retry-After': '1',
    });
  }
  return undefined;
}

/** Parses `value` with a contract schema; a failure is a 422 naming every bad field. */
export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  return raise(invalid(`The request has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}: ${errors.map((e) => e.path).join(', ')}.`, errors));
}

function raise(error: GatewayError): never {
  throw error;
}

export function problemResponse(c: Context, problem: ProblemError): Response {
  return c.body(JSON.stringify(problem.toJSON()), problem.status as 400, {
    ...problem.headers,
    // A body refused for its size is left unread, so the server drops the connection: say so, or a client
    // that keeps it alive sends its next request into a closed socket.
    ...(problem.status === 413 && { Connection: 'close' }),
    'Content-Type': 'application/problem+json',
  });
}
