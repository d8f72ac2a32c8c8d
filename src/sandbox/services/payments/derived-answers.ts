// Answers derived from facts that one statement reads as JSON text (a link's, an order's), kept with that text. Every
// request still reads the facts; when they come back the same and the clock is still before the instant at which the
// derivation could change (LinkState.stable_until, payment-state.ts), the answer is the one derived before. So the
// derivation, the rendering and the JSON are skipped, and nothing served can be older than the database.

interface Kept<Answer> {
  facts: string;
  answer: Answer;
  /** The window in which the answer holds: from when it was derived, until the clock could change it. */
  from: number;
  until: number;
}

export class DerivedAnswers<Answer> {
  readonly #kept = new Map<string, Kept<Answer>>();

  /** `capacity`: how many keys are kept; the one kept longest goes first. */
  constructor(private readonly capacity: number) {}

  /** The answer kept for `key`, if it was derived from these very facts and `now` is inside its window. */
  get(key: string, facts: string, now: number): Answer | undefined {
    const kept = this.#kept.get(key);
    return kept && kept.facts === facts && now >= kept.from && now < kept.until ? kept.answer : undefined;
  }

  /** The answer last kept for `key`, whatever facts and window it was kept with. */
  last(key: string): Answer | undefined {
    return this.#kept.get(key)?.answer;
  }

  set(key: string, facts: string, answer: Answer, window: { from: number; until: number }): void {
    this.#kept.delete(key);
    if (this.#kept.size >= this.capacity) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(key, { facts, answer, ...window });
  }
}
