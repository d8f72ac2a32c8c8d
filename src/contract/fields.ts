// Field rules shared by every resource. The integration document leaves lengths and formats open ("not shown");
// these are the gateway's decisions, documented in docs/api.md.
import * as z from 'zod/mini';
import { ASSET_CODE, NETWORK_ID } from './assets.js';
import { BIDI_CONTROL, COUNTRY_CODE, EMAIL_MAX_LENGTH, INVISIBLE, isWebUrl, LANGUAGE, PHONE } from './rules.js';

export { isWebUrl };

/** Type error message that tells a missing field from a mistyped one. */
export const expected = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

/** A JSON object of known fields (unknown ones are dropped). */
export const object = <T extends z.core.$ZodLooseShape>(shape: T) => z.object(shape, expected('an object'));

/** A bounded piece of free text; a required one (`min` ≥ 1) must show something. */
export const text = (max: number, min = 0) =>
  z.string(expected('text')).check(
    z.minLength(min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`),
    z.maxLength(max, `must be at most ${max} characters`),
    z.refine((value) => !BIDI_CONTROL.test(value), 'must not contain bidirectional control or tag characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, U+E0000–U+E007F)'),
    z.refine((value) => min === 0 || !INVISIBLE.test(value), 'must contain a visible character, not only spaces or invisible ones'),
  );

/** Whole VND (the currency has no minor unit), as a JSON number. Money is never a float. */
export const MAX_VND = 10_000_000_000_000;
export const vndAmount = (min: 0 | 1) =>
  z.int(expected('a whole number of VND')).check(
    z.gte(min, min === 1 ? 'must be at least 1 VND' : 'must not be negative'),
    z.lte(MAX_VND, `must be at most ${MAX_VND} VND`),
  );

export const webUrl = z.string(expected('a URL')).check(
  z.maxLength(2048, 'must be at most 2048 characters'),
  z.refine(isWebUrl, 'must be an absolute https: URL (http: only on localhost in the sandbox)'),
);

export const countryCode = z.string(expected('a two-letter country code')).check(z.regex(COUNTRY_CODE, 'must be a two-letter country code'));

export const email = z.email(expected('an e-mail address')).check(z.maxLength(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`));

export const phone = z.string(expected('a phone number')).check(z.regex(PHONE, 'must be a phone number of 3 to 32 digits'));

export const locale = z.string(expected('a language code')).check(z.regex(LANGUAGE, 'must be a language code such as vi or en-US'));

/** Path-safe order reference: it is also the `{order_id}` segment of the refund URLs. */
export const orderId = z.string(expected('an order reference')).check(
  z.regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, 'must be 1 to 64 letters, digits, _ . : or - (starting with a letter or digit)'),
);

/**
 * A network id or an asset code in its form; whether the gateway takes it is its configuration's to say (the
 * services check it against the configured networks, naming them).
 */
export const networkId = z.string(expected('a network id')).check(z.regex(NETWORK_ID, 'must be a network id such as TRON or ETHEREUM'));
export const assetCode = z.string(expected('an asset code')).check(z.regex(ASSET_CODE, 'must be an asset code such as USDT'));
