// Money in atomic units (sun, wei, satoshi) as bigint, and decimal strings at the edges. No floats anywhere.

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** "12.5" with 6 decimals → 12500000n. More fraction digits than the asset has is an error, not a rounding. */
export function parseDecimal(text: string, decimals: number): bigint {
  const match = DECIMAL.exec(text);
  if (!match) throw new Error(`"${text}" is not a decimal number such as 12.5`);
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) throw new Error(`"${text}" has more than ${decimals} decimal places`);
  return BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/** 12500000n with 6 decimals → "12.5": no trailing zeros, no exponent. */
export function formatAtomic(atomic: bigint, decimals: number): string {
  const sign = atomic < 0n ? '-' : '';
  const abs = atomic < 0n ? -atomic : atomic;
  const unit = 10n ** BigInt(decimals);
  const fraction = (abs % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${sign}${abs / unit}${fraction ? `.${fraction}` : ''}`;
}

/** A decimal rate as an integer over a power of ten: "26345.5" → { units: 263455n, scale: 10n }. */
function scaled(rate: string): { units: bigint; scale: bigint } {
  const match = DECIMAL.exec(rate);
  if (!match) throw new Error(`rate "${rate}" is not a decimal number`);
  const places = (match[2] ?? '').length;
  const units = parseDecimal(rate, places);
  if (units === 0n) throw new Error('rate must be more than 0');
  return { units, scale: 10n ** BigInt(places) };
}

/** Atomic units in one step of a quote with `quoteDecimals` places: 10_000n for USDT (6 decimals) quoted to 2. */
export function quoteStep(decimals: number, quoteDecimals: number): bigint {
  return 10n ** BigInt(decimals - quoteDecimals);
}

/** `atomic` rounded up to a whole number of `step`s. */
export function roundUp(atomic: bigint, step: bigint): bigint {
  return ((atomic + step - 1n) / step) * step;
}

/**
 * The crypto amount that pays `amountVnd` at `rate` (VND per unit), rounded up to the next atomic unit, then up to
 * the quote's precision (`step` atomic units), so a person can type it.
 */
export function quoteAtomic(amountVnd: bigint, rate: string, decimals: number, step = 1n): bigint {
  const { units, scale } = scaled(rate);
  const numerator = amountVnd * 10n ** BigInt(decimals) * scale;
  return roundUp((numerator + units - 1n) / units, step);
}

/** What a crypto amount is worth in VND at `rate`, rounded down. */
export function vndForAtomic(atomic: bigint, rate: string, decimals: number): bigint {
  const { units, scale } = scaled(rate);
  return (atomic * units) / (10n ** BigInt(decimals) * scale);
}

/** What a crypto amount is worth in VND at `rate`, rounded up: a single atomic unit is worth at least 1 VND. */
export function vndForAtomicUp(atomic: bigint, rate: string, decimals: number): bigint {
  const { units, scale } = scaled(rate);
  const divisor = 10n ** BigInt(decimals) * scale;
  return (atomic * units + divisor - 1n) / divisor;
}

/**
 * Atomic units a refund of `amountVnd` sends back from a payment whose confirmed money (`confirmed` atomic units) is
 * worth `valueVnd` to the order: the refunds' cumulative share of that money, less what earlier refunds of it
 * (`refundedVnd` in all) sent. Rounding down never strands dust: the refund that completes `valueVnd` sends exactly
 * what is left. `sent` is what the chain shows was sent back; by default what the earlier refunds' shares came to.
 */
export function refundAtomic(confirmed: bigint, valueVnd: bigint, refundedVnd: bigint, amountVnd: bigint, sent = (confirmed * refundedVnd) / valueVnd): bigint {
  return (confirmed * (refundedVnd + amountVnd)) / valueVnd - sent;
}

/** The least VND whose refund sends one atomic unit more than was sent (a smaller one would send nothing). */
export function leastRefundVnd(confirmed: bigint, valueVnd: bigint, refundedVnd: bigint, sent = (confirmed * refundedVnd) / valueVnd): bigint {
  return ((sent + 1n) * valueVnd + confirmed - 1n) / confirmed - refundedVnd;
}

const RATE_PLACES = 6;

/** The customer's rate: the market rate less `spreadBps` basis points, to 6 decimal places, rounded down. */
export function applySpread(rate: string, spreadBps: number): string {
  const market = parseDecimal(rate, RATE_PLACES);
  return formatAtomic((market * BigInt(10_000 - spreadBps)) / 10_000n, RATE_PLACES);
}
