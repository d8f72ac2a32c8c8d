// The floor the element's paint is measured against: the least a page can do to show the same order summary. The
// link's view inline in the HTML, and a plain custom element (no library, no validation, no formatter beyond a
// regular expression) that draws the summary into its shadow root with the marks bench/suites/element.ts waits for
// (`[part="card"][data-view="order"]` holding `[part="summary"]`). It is named <pay-checkout> so that the same
// instrumentation measures it; its script comes after the element, as the hosted page's script does.
import { jsonForScript } from '../../src/sandbox/http/inline-json.js';

const FLOOR_ELEMENT = `customElements.define('pay-checkout', class extends HTMLElement {
  connectedCallback() {
    const view = JSON.parse(document.getElementById('view').textContent);
    const vnd = (amount) => String(amount).replace(/\\B(?=(\\d{3})+$)/g, '.') + '\\u00a0₫';
    const el = (tag, attributes, ...children) => {
      const element = document.createElement(tag);
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      element.append(...children);
      return element;
    };
    const root = this.attachShadow({ mode: 'open' });
    const style = ':host{display:block;font:16px/1.5 system-ui,sans-serif}.card{max-width:28rem;margin:auto;padding:1.5rem;border:1px solid #ccc;border-radius:12px}li,.total{display:flex;justify-content:space-between}';
    root.append(
      el('style', {}, style),
      el('div', { part: 'card', class: 'card', 'data-view': 'order' },
        el('h1', {}, view.merchant_details.name ?? 'Checkout'),
        el('h2', {}, 'Order summary'),
        el('div', { part: 'summary' },
          el('p', {}, view.description),
          el('ul', {}, ...view.order_details.map((line) => el('li', { part: 'line' }, el('span', {}, line.name + ' × ' + line.quantity), el('span', {}, vnd(line.price * line.quantity))))),
          el('p', { part: 'total', class: 'total' }, el('span', {}, 'Total'), el('span', {}, vnd(view.amount)))),
        el('button', { type: 'button' }, 'Pay ' + vnd(view.amount))));
  }
});`;

/** The floor page for one link's view (JSON, as GET /api/checkout/{ref} answers it). */
export const floorPage = (view: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Checkout</title></head>
<body><main><pay-checkout></pay-checkout></main>
<script type="application/json" id="view">${jsonForScript(view)}</script>
<script>${FLOOR_ELEMENT}</script>
</body></html>`;
