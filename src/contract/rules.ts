// The field rules and the statuses as plain values, without zod's schemas: fields.ts and checkout.ts build the
// gateway's schemas from them, and the element (which ships no schema) checks the same rules with them
// (src/checkout/answers.ts, the contact form in src/checkout/pay-checkout/state.ts).
import { regexes } from 'zod/v4/core';

export const PAYMENT_STATUSES = ['awaiting_payment', 'confirming', 'underpaid', 'paid', 'expired', 'paid_late'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const LINK_STATUSES = ['active', 'paid', 'expired', 'cancelled'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** Which environment a gateway process is (GATEWAY_ENV): the sandbox's test coins, or live payments. */
export const ENVIRONMENTS = ['sandbox', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

// The groups of statuses the rules speak of, named once: the gateway, the element and the SQL statements take them
// from here. The migrations hold the lists as they were when each was released: a list that changes here needs a new
// migration (test/gateway/status-groups.test.ts fails until the database says the same).
/** A quote still taking money: what is sent now counts toward it. */
export const QUOTE_OPEN_STATUSES = ['awaiting_payment', 'underpaid'] as const satisfies readonly PaymentStatus[];
/** A payment still in the customer's hands: its quote open, or its full amount seen and gaining confirmations. */
export const OPEN_PAYMENT_STATUSES = [...QUOTE_OPEN_STATUSES, 'confirming'] as const satisfies readonly PaymentStatus[];
/** A link that counts for its order: one can be paid, or was; an order has at most one. */
export const LIVE_LINK_STATUSES = ['active', 'paid'] as const satisfies readonly LinkStatus[];

/** Whether a status is in a group (a group's type is narrower than the status's). */
export const isIn = <T extends string>(group: readonly T[], status: string): status is T => (group as readonly string[]).includes(status);

/**
 * Every Unicode bidirectional control (the Bidi_Control property: U+061C, U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069) and the tag characters (U+E0000–U+E007F): they reorder or hide text around them, so a name or
 * description could show the customer something other than what it says. Refused, not stripped: the merchant learns
 * which field held one, and a signed body is never changed behind its signature.
 */
export const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|\uDB40[\uDC00-\uDC7F]/;
/** Nothing a reader can see: white space, controls, format characters, zero-width and filler characters, marks with no base. */
export const INVISIBLE = /^[\s\p{Cc}\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}\u2800]+$/u;

export const COUNTRY_CODE = /^[A-Za-z]{2}$/;
export const PHONE = /^\+?[0-9 ()./-]{3,32}$/;
/** BCP 47-style language tag as addresses carry it: `vi`, `en-US`, `vi_VN`. */
export const LANGUAGE = /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/;
/** A decimal string such as "12.5": crypto amounts and rates never travel as floats. */
export const DECIMAL = /^\d+(\.\d+)?$/;
export const EMAIL_MAX_LENGTH = 254;

/** What fields.ts's `email` accepts: zod's own e-mail pattern (the one z.email() checks), and the length limit. */
export const isEmail = (value: string): boolean => value.length <= EMAIL_MAX_LENGTH && regexes.email.test(value);

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a URL may be linked or followed: absolute `https:`, or `http:` on the loopback host (the sandbox).
 * Everything else, `javascript:` and `data:` above all, is refused.
 */
export function isWebUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}
