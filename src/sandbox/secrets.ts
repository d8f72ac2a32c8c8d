// Secrets at rest: random bearer values are stored as SHA-256 hashes (they carry 256 bits of
// entropy, so a slow hash adds nothing); a secret the gateway must use as a key is sealed with AES-256-GCM.
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** A random opaque value: `prefix_` and 32 bytes in base64url (or fewer bytes where the value is also an id). */
export const randomToken = (prefix: string, bytes = 32): string => `${prefix}_${randomBytes(bytes).toString('base64url')}`;

export function sameSecret(given: string, hash: string): boolean {
  const a = Buffer.from(sha256(given), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface Sealer {
  /** Seals with the current data key. */
  seal(plain: string): string;
  /** Opens with whichever key sealed it: the current one or a previous one. */
  open(sealed: string): string;
  /** Which key opens `sealed`: 0 the current, 1… the previous ones in order; undefined when none does. */
  keyOf(sealed: string): number | undefined;
}

const keyOf = (dataKey: string) => createHash('sha256').update(dataKey, 'utf8').digest();

function openWith(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) throw new Error('sealed value is malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/** AES-256-GCM under `dataKey`; `previous` keys (a rotation under way) still open what they sealed. */
export function createSealer(dataKey: string, previous: readonly string[] = []): Sealer {
  const keys = [dataKey, ...previous].map(keyOf);
  /** The current key first: once a rotation has started, every value is sealed with it. */
  const opened = (sealed: string): { index: number; plain: string } | undefined => {
    for (const [index, key] of keys.entries()) {
      try {
        return { index, plain: openWith(key, sealed) };
      } catch {
        // the next key, if any
      }
    }
    return undefined;
  };
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keys[0]!, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
    },
    open(sealed) {
      const result = opened(sealed);
      if (!result) throw new Error('no data key opens this sealed value');
      return result.plain;
    },
    keyOf: (sealed) => opened(sealed)?.index,
  };
}
