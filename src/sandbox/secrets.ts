// Secrets at rest: random bearer values are stored as SHA-256 hashes (they carry 256 bits of
// entropy, so a slow hash adds nothing); a secret the gateway must use as a key is sealed with AES-256-GCM.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { unavailable } from './errors.js';
import { log } from './logging.js';

export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** A random opaque value: `prefix_` and 32 bytes in base64url (or fewer bytes where the value is also an id). */
export const randomToken = (prefix: string, bytes = 32): string => `${prefix}_${randomBytes(bytes).toString('base64url')}`;

export function sameSecret(given: string, hash: string): boolean {
  const a = Buffer.from(sha256(given), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface Sealer {
  /** Seals with the key in force (`sealWith`): the current data key, or a previous one while a rotation waits. */
  seal(plain: string): string;
  /**
   * Opens with whichever key sealed it: the current one or a previous one. None: a 503 (a rotation this process was
   * not given the new key of; services/operations/data-keys.ts), never a 500.
   */
  open(sealed: string): string;
  /** Which key opens `sealed`: 0 the current, 1… the previous ones in order; undefined when none does. */
  keyOf(sealed: string): number | undefined;
  /** Each key's fingerprint (keyId), in the same order: what a process tells others of the keys it holds. */
  readonly ids: readonly string[];
  /** Which key `seal` seals with from now on, by its index. */
  sealWith(index: number): void;
  readonly sealing: number;
}

const keyOf = (dataKey: string) => createHash('sha256').update(dataKey, 'utf8').digest();

/** A data key's fingerprint: 16 hex digits of an HMAC under it, which tell keys apart and give nothing of them away. */
export const keyId = (dataKey: string): string => createHmac('sha256', keyOf(dataKey)).update('pay-checkout data key id').digest('hex').slice(0, 16);

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
  const ids = [dataKey, ...previous].map(keyId);
  let sealing = 0;
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
      const cipher = createCipheriv('aes-256-gcm', keys[sealing]!, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
    },
    open(sealed) {
      const result = opened(sealed);
      if (!result) {
        log.warn(
          { data_keys: ids },
          'data key: a secret the database holds opens with none of the keys this process holds: another process sealed it with a newer key; give this one that key in GATEWAY_DATA_KEYS_PREVIOUS (answered 503)',
        );
        throw unavailable('A secret this request needs is sealed with a data key this gateway process does not hold yet (a key rotation is under way); try again shortly.');
      }
      return result.plain;
    },
    keyOf: (sealed) => opened(sealed)?.index,
    ids,
    sealWith(index) {
      if (!keys[index]) throw new Error(`no data key ${index}`);
      sealing = index;
    },
    get sealing() {
      return sealing;
    },
  };
}
