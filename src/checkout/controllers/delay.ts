// A moment a fixed time after the host connects. The loading view waits for it: a gateway that answers sooner has
// its order (or error) drawn as the first thing, with no spinner flashing before it and no frame spent drawing one.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class DelayController implements ReactiveController {
  /** Whether the time has passed (it stays passed). */
  passed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly ms: number,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    if (this.passed) return;
    this.#timer = setTimeout(() => {
      this.passed = true;
      this.host.requestUpdate();
    }, this.ms);
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
  }
}
