// Every way out of the checkout: the automatic return to the merchant (after payment, or once the link has
// expired), with its visible countdown, and the navigations the customer asks for. Each dispatches its cancelable
// event first, then goes to exactly the gateway's URL, once, and only if it is http(s).
import type { ReactiveControllerHost } from 'lit';
import { isWebUrl } from '../../contract/rules.js';
import { CountdownController } from './countdown.js';

// Its timer is a CountdownController, which it registers with the host; it has no lifecycle of its own.
export class RedirectController {
  /** The automatic return: when, and which way. */
  #due: { at: number; go: () => void } | null = null;
  #navigated = false;
  readonly #countdown: CountdownController;

  constructor(
    private readonly host: ReactiveControllerHost & EventTarget,
    /** Seconds between scheduling and going. */
    private readonly seconds: number,
  ) {
    this.#countdown = new CountdownController(host, { target: () => this.#due?.at ?? null, onEnd: () => this.#due?.go() });
  }

  /** Whole seconds until the automatic return; null when none is due. */
  get remaining(): number | null {
    return this.#countdown.remaining;
  }

  /** Schedules the automatic return (once: a return already due or done stands). */
  schedule(go: () => void): void {
    if (this.#due || this.#navigated) return;
    this.#due = { at: Date.now() + this.seconds * 1000, go };
    this.host.requestUpdate();
  }

  /** Stops the automatic return (the customer left another way, or stays). */
  cancel(): void {
    this.#due = null;
    this.host.requestUpdate();
  }

  /** Another link: nothing of the previous one may drive a navigation. */
  reset(): void {
    this.cancel();
    this.#navigated = false;
  }

  /** The one way out of the page: `event` first (cancelable), then `url` if it is http(s). */
  navigate(event: Event, url: string): void {
    if (!this.host.dispatchEvent(event) || !isWebUrl(url) || this.#navigated) return;
    this.#navigated = true;
    location.assign(url);
  }
}
