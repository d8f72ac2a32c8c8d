// The controller that loads the views after the order (src/checkout/controllers/deferred-module.ts): a background
// load in idle time, then its warm-up in a later idle period, without updating the host; a view that asks first
// gets the module and an update, and nothing is warmed for it.
import { expect, fixture, waitUntil } from '@open-wc/testing';
import { LitElement } from 'lit';
import { DeferredModuleController } from '../../src/checkout/controllers/deferred-module.js';

interface Module {
  name: string;
}

class DeferredHost extends LitElement {
  readonly loaded: Module = { name: 'later' };
  loads = 0;
  warmed: Module[] = [];
  updates = 0;
  allowPreload = true;
  readonly later = new DeferredModuleController<Module>(this, {
    load: () => {
      this.loads++;
      return Promise.resolve(this.loaded);
    },
    preload: () => this.allowPreload,
    warm: (module) => this.warmed.push(module),
    onError: (error) => {
      throw error;
    },
  });

  protected override updated(): void {
    this.updates++;
  }
}
customElements.define('deferred-host', DeferredHost);

/** Long enough for several idle periods (and the fallback's frames) on a loaded machine. */
const IDLE_MS = 1_000;

describe('DeferredModuleController', () => {
  it('loads in the background, then warms the module once, without updating the host', async () => {
    const host = await fixture<DeferredHost>(document.createElement('deferred-host'));
    expect(host.updates).to.equal(1);
    await waitUntil(() => host.warmed.length > 0, 'the module warmed', { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    expect(host.loads).to.equal(1);
    expect(host.warmed).to.deep.equal([host.loaded]);
    expect(host.later.module).to.equal(host.loaded);
    expect(host.updates, 'a background load nobody asked for updates nothing').to.equal(1);
  });

  it('gives a view that asks before the background load the module and an update, and warms nothing', async () => {
    const host = await fixture<DeferredHost>(document.createElement('deferred-host'));
    // The background load is scheduled for idle time; the customer is quicker.
    host.later.load();
    await waitUntil(() => host.updates === 2, 'the update the module brings', { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    expect(host.loads).to.equal(1);
    expect(host.warmed, 'nothing warmed for a module already in use').to.deep.equal([]);
  });

  it('loads nothing while preload() says no', async () => {
    const host = document.createElement('deferred-host') as DeferredHost;
    host.allowPreload = false;
    await fixture(host);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    expect(host.loads).to.equal(0);
    expect(host.warmed).to.deep.equal([]);
  });
});
