// The demo's elements draw into the light DOM: the page's one stylesheet styles them, and tests and assistive
// technology see one document. (The checkout element is the one with a shadow root: it lives on others' pages.)
import { LitElement } from 'lit';

export class LightElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}
