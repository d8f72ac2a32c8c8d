// Idempotency-Key on the POSTs that create (docs/api.md, "Idempotency"): what a key is scoped to, and how an answer says
// that a key replayed it rather than produced it anew.
import type { Context } from 'hono';

/** The key and the request it came with, as the services keep them (services/merchant/idempotency.ts). */
export const idempotencyScope = (c: Context, body: unknown) => ({ key: c.req.header('Idempotency-Key'), method: c.req.method, path: c.req.path, body });

export const replayHeaders = (replayed: boolean): Record<string, string> => (replayed ? { 'Idempotent-Replayed': 'true' } : {});
