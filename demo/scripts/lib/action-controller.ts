// What the tester's tools (demo/scripts/wallet/test-wallet.ts, demo/scripts/tester/tester-panel.ts) show of their
// sandbox actions: busy while one runs (their controls wait), then what it did or why it failed, a refusal with each
// field it names. Its host keeps it and is asked to render again as it changes; it needs none of the host's lifecycle.
import type { ReactiveControllerHost } from 'lit';
import { ApiError } from './api.js';

export class ActionController {
  #busy = false;
  #status = '';
  #error = '';

  constructor(private readonly host: ReactiveControllerHost) {}

  get busy(): boolean {
    return this.#busy;
  }

  /** What the last action did. */
  get status(): string {
    return this.#status;
  }

  /** Why the last action failed. */
  get error(): string {
    return this.#error;
  }

  /**
   * Runs `work`, then says `done`, or why it failed. With `done` empty, `work` says what it did (`say`) as it goes, and
   * a failure after that is shown beside it.
   */
  async run(done: string, work: () => Promise<void>): Promise<void> {
    this.#busy = true;
    this.#show('', '');
    try {
      await work();
      if (done) this.#status = done;
    } catch (error) {
      this.#error = error instanceof ApiError ? describe(error) : (error as Error).message;
    } finally {
      this.#busy = false;
      this.host.requestUpdate();
    }
  }

  say(status: string): void {
    this.#show(status, '');
  }

  fail(message: string): void {
    this.#show('', message);
  }

  #show(status: string, error: string): void {
    this.#status = status;
    this.#error = error;
    this.host.requestUpdate();
  }
}

function describe(error: ApiError): string {
  const fields = error.fieldErrors.map((e) => `${e.path} ${e.message}`).join('; ');
  return fields ? `${error.message} (${fields})` : error.message;
}
