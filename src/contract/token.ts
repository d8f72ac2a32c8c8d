// The token endpoint's answer (docs/api.md, "Issue an access token") and RFC 6749 section 5.
import * as z from 'zod/mini';
import { expected, object } from './fields.js';

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.int(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

export const TOKEN_ERRORS = ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_grant'] as const;
export const TokenError = z.object({
  error: z.enum(TOKEN_ERRORS),
  error_description: z.optional(z.string()),
});
export type TokenError = z.infer<typeof TokenError>;

/**
 * The `error_description` of the `invalid_client` answer to the secret the last roll replaced: not a wrong secret, so
 * not counted as one, and a sign-in form can say what to do.
 */
export const SECRET_REPLACED = 'This client secret was replaced when it was rolled: use the new one.';

/**
 * What the gateway says to a disabled merchant's credentials, tokens and merchant key (the token endpoint's
 * `error_description`, the merchant API's 401 `detail`), so the portal can end its sessions saying why.
 */
export const MERCHANT_DISABLED = 'This merchant is disabled: its credentials and tokens no longer work. Ask the gateway\'s operator.';

/** The token request's form (RFC 6749 4.4.2); the credentials may come as HTTP Basic instead. */
export const TokenRequest = z.object({
  grant_type: z.literal('client_credentials'),
  client_id: z.optional(z.string()),
  client_secret: z.optional(z.string()),
});

/** How long the old client secret may still be used after a roll, at most (docs/api.md, "Roll the client secret"). */
export const MAX_SECRET_GRACE_SECONDS = 7 * 24 * 3600;

/** POST /api/merchant/client-secret/roll: `expires_in` seconds of grace for the old secret (0, the default: none). */
export const ClientSecretRollRequest = object({
  expires_in: z.optional(
    z.int(expected('a whole number of seconds')).check(
      z.gte(0, 'must not be negative'),
      z.lte(MAX_SECRET_GRACE_SECONDS, `must be at most ${MAX_SECRET_GRACE_SECONDS} seconds (7 days)`),
    ),
  ),
});
export type ClientSecretRollRequest = z.infer<typeof ClientSecretRollRequest>;

/** The new client secret, answered this once; the old one works until `previous_secret_expires_at` (null: no longer). */
export const ClientSecretRoll = z.object({
  client_id: z.string(),
  client_secret: z.string(),
  previous_secret_expires_at: z.nullable(z.string()),
});
export type ClientSecretRoll = z.infer<typeof ClientSecretRoll>;
