// What a form shows of a refusal, as pure state: the problem (the gateway's, or the page's own check) and an error
// message per field path. A field's error goes as soon as that field changes; the rest stay until the next submit.
import type { FieldError, Problem } from '../../../src/contract/index.js';

export class FieldErrors {
  #byPath = new Map<string, string>();
  #problem: Problem | undefined;

  get problem(): Problem | undefined {
    return this.#problem;
  }

  get size(): number {
    return this.#byPath.size;
  }

  /** The paths with an error, in the order they were named. */
  get paths(): string[] {
    return [...this.#byPath.keys()];
  }

  get(path: string): string | undefined {
    return this.#byPath.get(path);
  }

  /** Shows a refusal: every error by its path (several for one path joined), and the problem, if there is one. */
  show(errors: readonly FieldError[], problem?: Problem): void {
    this.clear();
    this.#problem = problem;
    for (const { path, message } of errors) {
      const earlier = this.#byPath.get(path);
      this.#byPath.set(path, earlier ? `${earlier}; ${message}` : message);
    }
  }

  /**
   * The field at `path` changed: its error goes, and so do those of the fields inside it (`order_details.0` holds
   * `order_details.0.price`). Returns whether anything was cleared, so the page knows to draw again.
   */
  changed(path: string): boolean {
    let cleared = false;
    for (const key of this.#byPath.keys()) {
      if (key === path || key.startsWith(`${path}.`)) cleared = this.#byPath.delete(key) || cleared;
    }
    // The problem's own list names the same fields: keep it only while one of them is still wrong.
    if (cleared && this.#problem?.errors?.length) {
      const left = this.#problem.errors.filter((e) => this.#byPath.has(e.path));
      this.#problem = left.length ? { ...this.#problem, errors: left } : undefined;
    }
    return cleared;
  }

  clear(): void {
    this.#byPath.clear();
    this.#problem = undefined;
  }
}
