// The page script of the strict-CSP page (test/helpers/wtr-gateway.ts serves it, bundled, from the gateway's
// origin with STRICT_CSP). The element is placed as on the hosted page: no attributes, so it takes the ref from
// ?ref= and the API from the script's own origin. The test in the parent frame hears what happens by postMessage.
import '../../../src/checkout/define.js';

export interface CspReport {
  view: string | null;
  total: string;
  violations: string[];
}

const violations: string[] = [];
const el = document.createElement('pay-checkout');

function report(): void {
  const card = el.shadowRoot?.querySelector('[part~="card"]');
  const message: CspReport = {
    view: card?.getAttribute('data-view') ?? null,
    total: card?.querySelector('[part~="total"]')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
    violations,
  };
  parent.postMessage(message, '*');
}

document.addEventListener('securitypolicyviolation', (event) => {
  violations.push(`${event.violatedDirective} blocked ${event.blockedURI || '(inline)'}${event.sample ? `: ${event.sample}` : ''}`);
  report();
});
document.body.append(el);
new MutationObserver(report).observe(el.shadowRoot!, { subtree: true, childList: true, attributes: true, characterData: true });
report();
