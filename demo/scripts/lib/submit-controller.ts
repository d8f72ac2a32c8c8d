// The submit-and-show-problem pattern of every form in the demo, once: a submit runs at most once at a time, says
// it is pending, and on a refusal keeps the problem and each field's error (demo/scripts/lib/field-errors.ts), draws
// the problem box and moves focus to it (or to the first field named); a field's error goes when that field changes.
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { FieldError } from '../../../src/contract/index.js';
import { ApiError } from './api.js';
import { FieldErrors } from './field-errors.js';
import { fieldId } from './ui.js';

export class SubmitController implements ReactiveController {
  readonly errors = new FieldErrors();
  pending = false;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    /**
     * The problem box's id (unique on the page), what the form asks for, for its heading ("the refund"), and what its
     * fields' paths start with, where the request's own (`amount`) are not unique on the page (`refund.amount`).
     */
    private readonly options: { problemId: string; subject: string; fieldPrefix?: string },
  ) {
    host.addController(this);
  }

  /** A form taken off the page comes back without its last refusal. */
  hostDisconnected(): void {
    this.errors.clear();
  }

  /**
   * Runs `work` unless a submit is already under way. An ApiError becomes the form's problem and field errors (and
   * resolves undefined); anything else is a bug and is thrown.
   */
  async submit<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (this.pending) return undefined;
    this.pending = true;
    this.errors.clear();
    this.host.requestUpdate();
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.errors.show(error.fieldErrors, error.problem);
      return undefined;
    } finally {
      this.pending = false;
      this.host.requestUpdate();
      if (this.errors.problem || this.errors.size) void this.#focusRefusal();
    }
  }

  /** The page's own check refused the form before anything was sent. */
  refuse(errors: readonly FieldError[]): void {
    this.errors.show(errors);
    this.host.requestUpdate();
    void this.#focusRefusal();
  }

  error(path: string): string | undefined {
    return this.errors.get(path);
  }

  /** A field changed: its error goes. */
  changed(path: string): void {
    if (this.errors.changed(path)) this.host.requestUpdate();
  }

  reset(): void {
    this.errors.clear();
    this.host.requestUpdate();
  }

  /** The refusal, with a link to each field it names; nothing while there is none. */
  problemBox(): TemplateResult | typeof nothing {
    const problem = this.errors.problem;
    if (!problem) return nothing;
    return html`<div class="problem" id=${this.options.problemId} tabindex="-1" role="alert">
      <p><strong>The gateway refused ${this.options.subject} (${problem.status}).</strong> ${problem.detail ?? problem.title}</p>
      ${problem.errors?.length
        ? html`<ul>
            ${problem.errors.map((e) => html`<li><a href="#${fieldId((this.options.fieldPrefix ?? '') + e.path)}">${e.path}</a>: ${e.message}</li>`)}
          </ul>`
        : nothing}
    </div>`;
  }

  async #focusRefusal(): Promise<void> {
    await this.host.updateComplete;
    const box = this.errors.problem ? this.host.querySelector<HTMLElement>(`#${this.options.problemId}`) : null;
    (box ?? this.host.querySelector<HTMLElement>('[aria-invalid="true"]'))?.focus();
  }
}
