// A module the host needs only for some views: loaded by a dynamic import, either when a view asks for it or, in
// the background, after the host's first frame that `preload()` allows has been painted (so it never competes with
// that frame). The host renders `module` once it is there (a preload nobody has asked for yet updates nothing); a
// failed import is retried at the next ask.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface DeferredModuleOptions<T> {
  load: () => Promise<T>;
  /** Whether to start loading after the update just done has painted. */
  preload: () => boolean;
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
    // The frame after the update is painted, then a task: the load starts once the customer sees that frame.
    requestAnimationFrame(() => setTimeout(() => this.#start()));
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
