// What can go wrong with a request, in the gateway's own words. Services throw these and know nothing of HTTP;
// http/problem.ts is the one place that turns each kind into its status and problem+json.
import type { FieldError } from '../contract/index.js';

export type FailureKind =
  /** The request breaks a rule: each bad field is named. */
  | 'invalid'
  /** The request is malformed before any rule applies (a bad header, say). */
  | 'malformed'
  | 'not_found'
  /** The request contradicts the state of things (paid already, a live link exists). */
  | 'conflict'
  /** What the request asks for is over for good (an expired link). */
  | 'gone'
  /** What the request needs cannot be had right now (a network whose node cannot be seen): try again shortly. */
  | 'unavailable'
  /** A limit on what one client, link or merchant may ask (docs/security.md, "Limits"): try again after `retryAfterSeconds`. */
  | 'too_many';

export class GatewayError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** When to ask again, for `unavailable` and `too_many`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
  }
}

export const invalid = (detail: string, errors?: FieldError[]) => new GatewayError('invalid', detail, errors);
export const malformed = (detail: string, errors?: FieldError[]) => new GatewayError('malformed', detail, errors);
export const notFound = (detail: string) => new GatewayError('not_found', detail);
export const conflict = (detail: string) => new GatewayError('conflict', detail);
export const gone = (detail: string) => new GatewayError('gone', detail);
export const unavailable = (detail: string, errors?: FieldError[]) => new GatewayError('unavailable', detail, errors);
export const tooMany = (detail: string, retryAfterSeconds: number) => new GatewayError('too_many', detail, undefined, Math.max(1, Math.ceil(retryAfterSeconds)));
