// RFC 9457 problem details: every error of the merchant and checkout APIs leaves through here.
import type { Context } from 'hono';
import type * as z from 'zod/mini';
import { fieldErrors, type FieldError, type Problem } from '../../contract/index.js';

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
export const notFound = (detail: string) => new ProblemError(404, detail);
export const conflict = (detail: string) => new ProblemError(409, detail);
export const unprocessable = (detail: string, errors?: FieldError[]) => new ProblemError(422, detail, errors);

/** Parses `value` with a contract schema; a failure is a 422 naming every bad field. */
export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  return raise(unprocessable(`The request has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}: ${errors.map((e) => e.path).join(', ')}.`, errors));
}

function raise(error: ProblemError): never {
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
