// <gateway-health>: one line above the portal's list saying whether the gateway is ready and how far behind each
// network is, from GET /readyz (docs/operations.md, "Health"), as BTCPay Server's health says whether it is in step
// with its chains. Asked for once when the portal opens.
import { html, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import type { Readiness } from '../../../src/sandbox/services/operations/readiness.js';
import { LightElement } from '../lib/light-element.js';
import { networkName } from './networks.js';

/** The line: ready or what is not, then each network's height and lag (or that it cannot be seen). */
export function healthLine(readiness: Readiness): string {
  const failed = Object.entries(readiness.checks).filter(([, check]) => !check.ok);
  const gateway = readiness.stopping
    ? 'Gateway stopping'
    : failed.length
      ? `Gateway not ready (${failed.map(([name, check]) => `${name.replace('_', ' ')}: ${check.detail ?? 'failing'}`).join('; ')})`
      : 'Gateway ready';
  const networks = readiness.networks.map((n) => {
    const name = networkName(n.network);
    if (!n.available) return `${name} cannot be seen`;
    return `${name} at block ${n.height}${n.lag_seconds === null ? '' : `, ${Math.round(n.lag_seconds)} s behind`}`;
  });
  return [gateway, ...networks].join(' · ');
}

export class GatewayHealth extends LightElement {
  @state() private line = 'Gateway health: asking…';

  override connectedCallback(): void {
    super.connectedCallback();
    void fetch('/readyz')
      .then(async (response) => (this.line = healthLine((await response.json()) as Readiness)))
      .catch(() => (this.line = 'Gateway health: no answer from /readyz'));
  }

  protected override render(): TemplateResult {
    return html`<p class="muted" role="status">${this.line}</p>`;
  }
}
