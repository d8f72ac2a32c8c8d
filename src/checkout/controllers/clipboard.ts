// One-tap copy: writes to the clipboard and remembers for a moment what was copied, so its button can say so.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** How long a button says "Copied". */
export const COPIED_MS = 2_000;

export interface ClipboardOptions<K> {
  onCopied: (what: K) => void;
  /** The clipboard refused (no permission, no secure context): the customer copies by hand. */
  onFailed: () => void;
}

export class ClipboardController<K extends string> implements ReactiveController {
  /** What was copied last, for COPIED_MS. */
  copied: K | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: ClipboardOptions<K>,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
  }

  async copy(what: K, text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      this.options.onFailed();
      return;
    }
    this.copied = what;
    this.options.onCopied(what);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.copied = undefined;
      this.host.requestUpdate();
    }, COPIED_MS);
    this.host.requestUpdate();
  }
}
