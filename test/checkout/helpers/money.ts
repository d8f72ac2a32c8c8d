// Decimal amounts as the tests reckon them: strings through BigInt atomic units, never floats.

function toAtomic(amount: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole + fraction.padEnd(decimals, '0').slice(0, decimals));
}

function fromAtomic(atomic: bigint, decimals: number): string {
  const digits = atomic.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** `amount` × `percent` / 100, rounded down to whole atomic units. */
export function percentOf(amount: string, percent: number, decimals: number): string {
  return fromAtomic((toAtomic(amount, decimals) * BigInt(percent)) / 100n, decimals);
}

/** Whether two decimal strings are the same amount ("1.50" and "1.5"). */
export function sameAmount(a: string, b: string, decimals: number): boolean {
  return toAtomic(a, decimals) === toAtomic(b, decimals);
}

/** `a` − `b`. */
export function minus(a: string, b: string, decimals: number): string {
  return fromAtomic(toAtomic(a, decimals) - toAtomic(b, decimals), decimals);
}
