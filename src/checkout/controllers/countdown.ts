// A countdown to a moment (the rate lock, a redirect), ticking once a second while the host is connected.
// The host says where it counts to through `target()`, read on every update, so render() never starts timers.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface CountdownOptions {
  /** Epoch milliseconds to count to; null stops the countdown. */
  target: () => number | null;
  /** Whole seconds left at which `onThreshold` is called (once each per target). */
  thresholds?: readonly number[];
  onThreshold?: (seconds: number) => void;
  /** Called once when the target is reached. */
  onEnd?: () => void;
}

export class CountdownController implements ReactiveController {
  /** Whole seconds left (rounded up); null when there is no target. */
  remaining: number | null = null;
  #target: number | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #passed = new Set<number>();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: CountdownOptions,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#sync(true);
  }

  hostUpdate(): void {
    this.#sync(false);
  }

  hostDisconnected(): void {
    this.#stop();
  }

  #sync(restart: boolean): void {
    const target = this.options.target();
    if (target === this.#target && !restart) return;
    this.#stop();
    this.#target = target;
    this.#passed = new Set(this.options.thresholds?.filter((s) => target !== null && (target - Date.now()) / 1000 <= s));
    if (target === null) {
      this.remaining = null;
      return;
    }
    this.#tick();
    if (this.remaining !== 0) this.#timer = setInterval(() => this.#tick(), 1000);
  }

  #tick(): void {
    if (this.#target === null) return;
    const remaining = Math.max(0, Math.ceil((this.#target - Date.now()) / 1000));
    if (remaining === this.remaining) return;
    this.remaining = remaining;
    for (const threshold of this.options.thresholds ?? []) {
      if (remaining <= threshold && !this.#passed.has(threshold)) {
        this.#passed.add(threshold);
        if (remaining > 0) this.options.onThreshold?.(threshold);
      }
    }
    this.host.requestUpdate();
    if (remaining === 0) {
      this.#stop();
      this.options.onEnd?.();
    }
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
