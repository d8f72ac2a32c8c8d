// The token endpoint's answer (docs/api.md, "Issue an access token") and RFC 6749 section 5.
import * as z from 'zod/mini';

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

/** The token request's form (RFC 6749 4.4.2); the credentials may come as HTTP Basic instead. */
export const TokenRequest = z.object({
  grant_type: z.literal('client_credentials'),
  client_id: z.optional(z.string()),
  client_secret: z.optional(z.string()),
});
