// Focus follows the view: when a new view replaces the one that held focus, its heading takes it, so keyboard
// and screen reader users stay in place instead of falling back to the top of the page.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface ViewFocusOptions {
  /** The name of the view shown now. */
  view: () => string;
  /** The new view's heading (focusable with tabindex="-1"). */
  heading: () => HTMLElement | null | undefined;
}

export class ViewFocusController implements ReactiveController {
  #shown: string | undefined;
  #hadFocus = false;

  constructor(
    private readonly host: ReactiveControllerHost & Element,
    private readonly options: ViewFocusOptions,
  ) {
    host.addController(this);
  }

  hostUpdate(): void {
    this.#hadFocus = this.host.shadowRoot?.activeElement != null;
  }

  hostUpdated(): void {
    const shown = this.options.view();
    if (shown === this.#shown) return;
    if (this.#shown !== undefined && this.#hadFocus) this.options.heading()?.focus();
    this.#shown = shown;
  }
}
