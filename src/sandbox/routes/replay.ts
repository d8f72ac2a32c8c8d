/** Marks a response that an Idempotency-Key replayed rather than produced anew. */
export const replayHeaders = (replayed: boolean): Record<string, string> => (replayed ? { 'Idempotent-Replayed': 'true' } : {});
