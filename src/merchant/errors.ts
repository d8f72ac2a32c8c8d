// What a call of the merchant SDK can end with besides its answer. Every error is a PayCheckoutError; the
// subclass says what went wrong, and `idempotencyKey` is the key the call sent (reuse it to try again later:
// the gateway answers a repeated key with the first answer and does nothing twice).
import type { FieldError, Problem, TokenError } from '../contract/index.js';

export class PayCheckoutError extends Error {
  override name = 'PayCheckoutError';
  constructor(
    message: string,
    /** The `Idempotency-Key` the call sent on every attempt, if it is a call that takes one. */
    readonly idempotencyKey: string | undefined,
    /** How many requests the call made. */
    readonly attempts: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The gateway answered with an error status (after any retries), with its problem details (or OAuth error) as sent. */
export class PayCheckoutApiError extends PayCheckoutError {
  override name = 'PayCheckoutApiError';
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
    readonly oauthError: TokenError | undefined,
    idempotencyKey: string | undefined,
    attempts: number,
    /** What `Retry-After` asked for, in milliseconds, when the gateway sent it. */
    readonly retryAfterMs?: number,
  ) {
    super(problem?.detail ?? oauthError?.error_description ?? oauthError?.error ?? `the gateway answered ${status}`, idempotencyKey, attempts);
  }

  /** The `{path, message}` list of a validation error, empty otherwise. */
  get fieldErrors(): FieldError[] {
    return this.problem?.errors ?? [];
  }
}

/** No answer came: the connection failed on every attempt. */
export class PayCheckoutConnectionError extends PayCheckoutError {
  override name = 'PayCheckoutConnectionError';
}

/** The call's time (`timeoutMs`, retries and waits included) ran out before an answer. */
export class PayCheckoutTimeoutError extends PayCheckoutError {
  override name = 'PayCheckoutTimeoutError';
}

/** The gateway answered with a success status but a body that is not what the contract says. */
export class PayCheckoutResponseError extends PayCheckoutError {
  override name = 'PayCheckoutResponseError';
  constructor(
    message: string,
    readonly status: number,
    /** Where the body broke the contract. */
    readonly issues: FieldError[],
    idempotencyKey: string | undefined,
    attempts: number,
  ) {
    super(message, idempotencyKey, attempts);
  }
}
