// Styles of <pay-checkout>: public `--pay-checkout-*` properties with defaults, private `--_*` inside.
// Light by default. The hosted page (`.page`) turns dark under `prefers-color-scheme: dark`; an embedded card does
// not (it sits in the shop's page, whose theme the system's setting does not tell). `theme="light"` /
// `theme="dark"` on the element forces one either way.
import { css, unsafeCSS } from 'lit';

/** The themable colours: public property, light default, dark default. One table, so both themes stay in step. */
const COLOURS: readonly [name: string, light: string, dark: string][] = [
  ['background', '#ffffff', '#111827'],
  ['surface', '#f6f7f9', '#1f2937'],
  ['text', '#111827', '#f3f4f6'],
  ['muted', '#4b5563', '#b8c0cc'],
  ['border', '#d1d5db', '#4b5563'],
  ['accent', '#1d4ed8', '#93c5fd'],
  ['accent-text', '#ffffff', '#0b1220'],
  ['danger', '#b91c1c', '#fca5a5'],
  ['success', '#15803d', '#86efac'],
  ['warning-background', '#fef3c7', '#422006'],
  ['warning-text', '#78350f', '#fde68a'],
  ['focus', '#2563eb', '#bfdbfe'],
];

/** `--_x: var(--pay-checkout-x, default)` for every colour of one theme. */
const theme = (scheme: 'light' | 'dark') =>
  `color-scheme:${scheme};accent-color:var(--_accent);` +
  COLOURS.map(([name, light, dark]) => `--_${name}:var(--pay-checkout-${name},${scheme === 'light' ? light : dark});`).join('');

// Built from the table above (constant text, nothing from outside): light first, dark by preference (hosted) or by force.
const themes = unsafeCSS(
  `:host{${theme('light')}}` +
    `@media (prefers-color-scheme: dark){:host(:not([theme='light'])) .page{${theme('dark')}}}` +
    `:host([theme='dark']){${theme('dark')}}`,
);

const base = css`
  :host {
    --_radius: var(--pay-checkout-radius, 12px);
    --_font: var(--pay-checkout-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif);
    --_max-width: var(--pay-checkout-max-width, 28rem);
    /* The type scale: body (1rem), small and large, and the payment's amount; weights 400 and 600. Few on purpose:
       every size and weight a frame draws is a font lookup of its own (in Chromium on Linux, a round trip to the
       browser process), and the card's first frame pays for each. */
    --_small: 0.875rem;
    --_large: 1.125rem;
    --_display: 1.375rem;
    display: block;
    min-width: 0;
    color: var(--_text);
    font-family: var(--_font);
    font-size: 1rem;
    line-height: 1.5;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }

  /* Hosted: the whole page; embedded: a card that fills its container, down to 320 px. */
  .page {
    min-height: 100vh;
    min-height: 100dvh;
    background: var(--_surface);
    color: var(--_text);
    padding: 1.5rem 1rem 3rem;
  }
  .card {
    background: var(--_background);
    color: var(--_text);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 1.25rem;
    width: 100%;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  /* A phone: the page's margins go to the content. (Not a container query: size containment on the host would
     collapse it in a shop's flex row.) */
  @media (max-width: 480px) {
    .page {
      padding: 0.5rem 0.5rem 2rem;
    }
    .card {
      padding: 1rem 0.875rem;
    }
  }
  .page .card {
    max-width: var(--_max-width);
    margin: 0 auto;
    box-shadow: 0 1px 3px rgb(0 0 0 / 0.08);
  }

  [part='header'] {
    display: flex;
    align-items: center;
    gap: 0.75rem;
    margin-bottom: 0.75rem;
  }
    [part='language-switch'] {
    flex: none;
    align-self: flex-start;
    font-size: var(--_small);
    font-weight: 400;
  }
  [part='header'] img {
    width: 40px;
    height: 40px;
    object-fit: contain;
    border-radius: 8px;
  }
  .merchant {
    flex: 1;
    min-width: 0;
    margin: 0;
    font-size: var(--_large);
    font-weight: 600;
  }
  .order-id {
    display: block;
    font-size: var(--_small);
    font-weight: 400;
    color: var(--_muted);
  }
  [part='badge'] {
    display: inline-block;
    margin-inline-start: 0.25rem;
    padding: 0 0.375rem;
    border-radius: 999px;
    background: var(--_warning-background);
    color: var(--_warning-text);
    font-size: var(--_small);
  }

  h2 {
    font-size: var(--_large);
    font-weight: 600;
    margin: 0 0 0.5rem;
  }
  h2:focus {
    outline: none;
  }
  h2:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  p {
    margin: 0 0 0.75rem;
  }
  .muted {
    color: var(--_muted);
    font-size: var(--_small);
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }

  /* Order summary */
  [part='summary'] {
    margin-bottom: 0.75rem;
  }
  [part='summary'] > p {
    margin-bottom: 0.25rem;
  }
  .lines {
    list-style: none;
    margin: 0 0 0.75rem;
    padding: 0;
  }
  [part='line'] {
    display: flex;
    align-items: center;
    gap: 0.75rem;
    padding: 0.25rem 0;
    border-bottom: 1px solid var(--_border);
  }
  [part='line'] img {
    flex: none;
    width: 48px;
    height: 48px;
    object-fit: cover;
    border-radius: 8px;
    background: var(--_surface);
  }
  .line-text {
    flex: 1;
    min-width: 0;
  }
  .line-name {
    display: block;
  }
  .amount {
    flex: none;
    font-variant-numeric: tabular-nums;
    text-align: end;
  }
  .totals {
    margin: 0;
  }
  /* Every disclosure: the order's details, the wallets past the first few. */
  summary {
    cursor: pointer;
    color: var(--_accent);
    font-size: var(--_small);
    padding: 0.25rem 0;
  }
  /* A tap target of 44 px: the customer paying from an exchange opens it on a phone. */
  [part='from-exchange'] > summary {
    padding: 0.75rem 0;
  }
  .totals div {
    display: flex;
    justify-content: space-between;
    gap: 1rem;
    padding: 0.125rem 0;
  }
  .totals dt,
  .totals dd {
    margin: 0;
  }
  .totals dd {
    font-variant-numeric: tabular-nums;
  }
  [part='total'] {
    font-weight: 600;
    font-size: var(--_large);
    border-top: 1px solid var(--_border);
    margin-top: 0.25rem;
    padding-top: 0.5rem !important;
  }
  [part='shipping'] {
    margin: 0 0 0.75rem;
    padding: 0.5rem 0.75rem;
    border-radius: calc(var(--_radius) / 2);
    background: var(--_surface);
  }
  [part='shipping'] h3 {
    margin: 0 0 0.25rem;
    font-size: 1rem;
    font-weight: 600;
  }
  address {
    font-style: normal;
  }
  /* On a phone the order's heading is for screen readers only (the header above names the order), and the coin cards
     are tighter: the total and the Pay button keep the first screen on a shop's page too. */
  @media (max-width: 480px) {
    .compact-heading {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    .asset {
      padding: 0.375rem 0.5rem;
    }
  }

  /* Form */
  fieldset,
  [part='methods'] {
    border: 0;
    margin: 0 0 0.75rem;
    padding: 0;
    min-width: 0;
  }
  [part='methods'] fieldset {
    margin: 0;
  }
  legend {
    font-weight: 600;
    margin-bottom: 0.25rem;
    padding: 0;
  }
  .field {
    display: grid;
    gap: 0.25rem;
    margin-bottom: 0.75rem;
  }
  .field label {
    font-size: var(--_small);
  }
  input[type='text'],
  input[type='email'],
  input[type='tel'] {
    font: inherit;
    color: var(--_text);
    background: var(--_background);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
    padding: 0.5rem 0.625rem;
    width: 100%;
    min-width: 0;
  }
  input[aria-invalid='true'] {
    border-color: var(--_danger);
  }
  .field-error,
  [part='error'] {
    color: var(--_danger);
    font-size: var(--_small);
    margin: 0;
  }
  .contact-card {
    display: flex;
    justify-content: space-between;
    align-items: flex-start;
    gap: 0.75rem;
  }
  .contact-card address {
    min-width: 0;
  }
  .contact-card button {
    flex: none;
  }
  .choice {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
    margin-bottom: 0.5rem;
    cursor: pointer;
  }
  .choice:has(input:checked) {
    border-color: var(--_accent);
    box-shadow: 0 0 0 1px var(--_accent);
  }
  /* The assets as cards, two to a row: on a phone the Pay button stays on the first screen. */
  .assets {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr));
    gap: 0.5rem;
  }
  .assets legend {
    float: left;
    grid-column: 1 / -1;
  }
  .asset {
    margin: 0;
    align-items: flex-start;
    line-height: 1.3;
  }
  .asset input {
    margin-top: 0.125rem;
  }
  .asset-text {
    min-width: 0;
  }
  .asset-name {
    display: block;
    font-weight: 600;
  }
  input[type='radio'] {
    margin: 0;
    width: 1.125rem;
    height: 1.125rem;
  }

  /* Buttons and links */
  button,
  .button {
    font: inherit;
    font-weight: 600;
    border-radius: calc(var(--_radius) / 2);
    padding: 0.625rem 1rem;
    min-height: 44px;
    cursor: pointer;
    text-decoration: none;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.375rem;
    border: 1px solid var(--_border);
    background: var(--_background);
    color: var(--_text);
  }
  .primary {
    width: 100%;
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-text);
  }
  button[disabled],
  [aria-disabled='true'] {
    opacity: 0.6;
    cursor: progress;
  }
  /* A tap target of 44 × 44 px at least, like every control (the language switch, change coin, copy hash). */
  .link-button {
    min-width: 44px;
    padding: 0.25rem 0.5rem;
    border-color: transparent;
    background: transparent;
    color: var(--_accent);
    text-decoration: underline;
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin: 0.75rem 0;
  }
  .actions > * {
    flex: 1 1 8rem;
  }

  /* Payment: the phone's order in the markup (amount, network, address, wallet links, then the QR); on a desktop,
     which scans the QR with another device, the QR comes right after the heading. A touch screen or a phone-sized
     window is a phone: the heading that says what to do there shows instead of "scan". */
  .pay {
    display: flex;
    flex-direction: column;
    text-align: center;
  }
  .lead {
    order: -2;
  }
  /* Tighter than the card's paragraphs: at 320 × 640 the address's copy button keeps the first screen. */
  .pay > p {
    margin-bottom: 0.5rem;
  }
  [part='qr'] {
    order: -1;
  }
  .on-phone {
    display: none;
  }
  @media (pointer: coarse), (max-width: 480px) {
    [part='qr'] {
      order: 0;
    }
    .on-phone {
      display: inline;
    }
    .on-desk {
      display: none;
    }
  }
  .copy-row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
  }
  .copy-row button {
    flex: none;
  }
  .network,
  [part='offline'] {
    margin-bottom: 0.5rem;
    text-align: start;
    border-radius: calc(var(--_radius) / 2);
    background: var(--_warning-background);
    color: var(--_warning-text);
    padding: 0.375rem 0.625rem;
  }
  [part='network-chip'] {
    margin: 0 0 0.25rem;
    font-size: var(--_large);
    font-weight: 600;
  }
  [part='qr'] {
    display: block;
    width: min(100%, 240px);
    height: auto;
    aspect-ratio: 1;
    margin: 0 auto 1rem;
    image-rendering: pixelated;
    border-radius: 4px;
    background: #ffffff;
  }
  .amount-big,
  [part='amount-remaining'] {
    font-size: var(--_display);
    font-weight: 600;
    margin: 0;
    font-variant-numeric: tabular-nums;
  }
  [part='amount-vnd'] {
    color: var(--_muted);
    margin-bottom: 0.75rem;
  }
  [part='address'] {
    flex: 1 1 12rem;
    min-width: 0;
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: var(--_small);
    padding: 0.5rem;
    background: var(--_surface);
    border-radius: calc(var(--_radius) / 2);
    word-break: break-all;
    user-select: all;
  }
  [part='network-warning'] {
    margin: 0;
    font-size: var(--_small);
  }
  [part='offline'] {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
    font-weight: 600;
  }
  [part='countdown'] {
    font-variant-numeric: tabular-nums;
    color: var(--_muted);
  }
  [part='qr-note'],
  [part='received'] {
    text-align: start;
    background: var(--_surface);
    padding: 0.625rem 0.75rem;
    border-radius: calc(var(--_radius) / 2);
    font-size: var(--_small);
  }
  [part='received'] {
    font-weight: 600;
  }
  [part='fee-note'] {
    text-align: start;
  }

  /* Footer */
  [part='footer'] {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0.25rem 1rem;
    margin-top: 1rem;
    padding-top: 0.75rem;
    border-top: 1px solid var(--_border);
    color: var(--_muted);
    font-size: var(--_small);
  }
  [part='help-link'] {
    display: inline-flex;
    align-items: center;
    min-height: 44px;
    color: var(--_accent);
  }
  /* Loading */
  /* The card before its view: the order's usual height (the demo's order of three lines, embedded; a page can set its own, and
     reserve the same before the script: docs/guide.md), grey bars where the lines will be. */
  .skeleton {
    min-height: var(--pay-checkout-skeleton-height, 57.625rem);
  }
  @media (max-width: 480px) {
    .skeleton {
      min-height: var(--pay-checkout-skeleton-height, 50.25rem);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      transition: none !important;
      scroll-behavior: auto !important;
    }
  }
`;

export const styles = [themes, base];
