import canonicalizeModule from 'canonicalize';

/**
 * RFC 8785 (JCS) canonical JSON. canonicalize 2 is CommonJS whose types declare an ES default export;
 * under NodeNext the default import is `module.exports`, the function itself.
 */
export const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;
