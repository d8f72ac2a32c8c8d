// Runs a refresh every few seconds while the host is connected and the page is visible (a hidden tab asks the
// server nothing), once more when the page becomes visible again, and never while the last one is still running.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class PollController implements ReactiveController {
  /** Whether it polls; the page's "refresh on its own" switch. */
  enabled = true;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running = false;

  constructor(
    host: ReactiveControllerHost,
    private readonly everyMs: number,
    private readonly refresh: () => Promise<void>,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#timer = setInterval(() => this.#tick(), this.everyMs);
    document.addEventListener('visibilitychange', this.#tick);
  }

  hostDisconnected(): void {
    clearInterval(this.#timer);
    document.removeEventListener('visibilitychange', this.#tick);
  }

  #tick = async (): Promise<void> => {
    if (!this.enabled || this.#running || document.visibilityState !== 'visible') return;
    this.#running = true;
    try {
      await this.refresh();
    } finally {
      this.#running = false;
    }
  };
}
