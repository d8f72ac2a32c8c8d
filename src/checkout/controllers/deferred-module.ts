// A module the host needs only for some views: loaded by a dynamic import, either when a view asks for it or, in
// the background, in the page's idle time after an update that `preload()` allows (so it never competes with that
// update's frame, nor with the customer's first taps). After a background load, `warm()` gets the module in the
// same idle period, for the work that makes its first use quicker. The host renders `module` once it is there (a
// preload nobody has asked for yet updates nothing); a failed import is retried at the next ask.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { whenIdle } from '../idle.js';

export interface DeferredModuleOptions<T> {
  load: () => Promise<T>;
  /** Whether to start loading, in idle time, after the update just done. */
  preload: () => boolean;
  /** Runs once after a background load, in its idle period, unless a view has asked for the module by then. */
  warm?: (module: T) => void;
  /** The import failed (a chunk that did not arrive): the host shows an error it can retry from. */
  onError: (error: unknown) => void;
}

export class DeferredModuleController<T> implements ReactiveController {
  /** The module, once loaded. */
  module: T | undefined;
  #loading: Promise<void> | undefined;
  #scheduled = false;
  /** Whether a view has asked for the module: only then does its arrival update the host. */
  #asked = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: DeferredModuleOptions<T>,
  ) {
    host.addController(this);
  }

  hostUpdated(): void {
    if (this.#scheduled || this.#loading || !this.options.preload()) return;
    this.#scheduled = true;
    whenIdle(() => {
      this.#start();
      void this.#loading?.then(() => this.#asked || (this.module && this.options.warm?.(this.module)));
    });
  }

  /** Asks for the module: starts loading (once at a time), and the host updates when it is there. */
  load(): void {
    this.#asked = true;
    this.#start();
  }

  #start(): void {
    this.#loading ??= this.options.load().then(
      (module) => {
        this.module = module;
        if (this.#asked) this.host.requestUpdate();
      },
      (error: unknown) => {
        this.#loading = undefined;
        this.options.onError(error);
      },
    );
  }
}
