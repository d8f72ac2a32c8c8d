// HMAC-SHA256 and the encodings the gateway's signatures use, on WebCrypto (Node 20+, Deno, Bun, browsers, edge
// workers); no import of node:crypto and no Buffer, so it bundles anywhere.
import type * as NodeCrypto from 'node:crypto';

const encoder = new TextEncoder();

/**
 * node:crypto, where the runtime lends it without an import (Node 20.16+, Bun): its HMAC is synchronous, where
 * WebCrypto's goes through a thread pool and a promise, several times the cost of the hash itself.
 */
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.('node:crypto') as
  | typeof NodeCrypto
  | undefined;

/** Imported keys by secret: importing costs more than signing, and a process signs with a handful of secrets. */
const keys = new Map<string, Promise<CryptoKey>>();
const KEYS_KEPT = 64;

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    if (keys.size >= KEYS_KEPT) keys.delete(keys.keys().next().value!);
    keys.set(secret, key);
    key.catch(() => keys.delete(secret));
  }
  return key;
}

export async function webCryptoHmacSha256(secret: string, message: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(message)));
}

export async function hmacSha256(secret: string, message: string): Promise<Uint8Array> {
  // WebCrypto refuses an empty key; node:crypto would take it. Refused on both paths alike.
  if (!nodeCrypto || secret === '') return webCryptoHmacSha256(secret, message);
  const digest = nodeCrypto.createHmac('sha256', secret).update(message, 'utf8').digest();
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
}

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export const base64url = (bytes: Uint8Array): string => base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Whether two texts are equal, in time that depends on their length only: a signature is compared as the exact
 * text it must be, so no other spelling of the same bytes (padding, alphabet, case, white space) passes.
 */
export function equalText(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return difference === 0;
}
