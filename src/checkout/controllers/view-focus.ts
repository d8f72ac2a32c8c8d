// Focus and scroll follow the view. When the view changes (not when the first content replaces the loading view:
// a page that has just loaded keeps its focus and scroll), the new view's heading takes
// focus if focus was in the element or had fallen back to the page (a pressed button that went away), so keyboard
// and screen reader users stay in place; focus the shop's page holds elsewhere is left alone. If the card's top has
// scrolled above the screen (a long order on a phone), the card is brought back into view, so the QR is never cut.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface ViewFocusOptions {
  /** The name of the view shown now. */
  view: () => string;
  /** The view that stands for "nothing loaded yet". */
  loading: string;
  /** The new view's heading (focusable with tabindex="-1"). */
  heading: () => HTMLElement | null | undefined;
  /** What to scroll into view: the card. */
  card: () => HTMLElement | null | undefined;
}

export class ViewFocusController implements ReactiveController {
  #shown: string | undefined;
  #takeFocus = false;

  constructor(
    private readonly host: ReactiveControllerHost & Element,
    private readonly options: ViewFocusOptions,
  ) {
    host.addController(this);
  }

  hostUpdate(): void {
    const active = document.activeElement;
    this.#takeFocus = this.host.shadowRoot?.activeElement != null || active === null || active === document.body;
  }

  hostUpdated(): void {
    const shown = this.options.view();
    if (shown === this.#shown) return;
    const before = this.#shown;
    this.#shown = shown;
    if (before === undefined || before === this.options.loading) return;
    const card = this.options.card();
    if (card && card.getBoundingClientRect().top < 0) {
      const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
      card.scrollIntoView({ block: 'start', behavior: smooth ? 'smooth' : 'auto' });
    }
    if (this.#takeFocus) this.options.heading()?.focus({ preventScroll: true });
  }
}
