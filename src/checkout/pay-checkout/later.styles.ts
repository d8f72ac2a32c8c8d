// Styles of the views in the chunk beside the script (views/later.ts): the receipt, the confirmations, the paid
// view's mark. They travel with those views, so the script-tag file does not carry them; the element adopts them
// beside its own styles once the chunk has arrived (pay-checkout.ts).
import { css } from 'lit';

export const laterStyles = css`
  .tx-actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0 1rem;
    align-items: center;
  }
  .receipt {
    text-align: start;
    margin: 0 0 0.75rem;
    font-size: var(--_small);
  }
  .receipt div {
    display: grid;
    grid-template-columns: minmax(6rem, auto) 1fr;
    gap: 0 0.75rem;
    padding: 0.25rem 0;
    border-bottom: 1px solid var(--_border);
  }
  .receipt dt {
    color: var(--_muted);
  }
  .receipt dd {
    margin: 0;
    grid-column: 2;
    min-width: 0;
  }
  .hashes dd + dd {
    margin-top: 0.25rem;
  }
  [part='tx-hash'] {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    word-break: break-all;
  }
  /* A link in a receipt is a tap target like a button (at least 44 px each way). */
  [part='explorer-link'],
  [part='receipt-link'] {
    display: inline-flex;
    align-items: center;
    min-height: 44px;
    min-width: 44px;
    color: var(--_accent);
  }
  [part='confirmations'] {
    font-weight: 600;
  }
  progress {
    width: 100%;
  }
  .done {
    color: var(--_success);
  }
  /* The paid view's success mark: a tick in a ring of the success colour, drawn (no image, no font glyph). */
  [part='success-mark'] {
    display: block;
    width: 3rem;
    height: 3rem;
    margin: 0 auto 0.75rem;
    border-radius: 50%;
    border: 3px solid var(--_success);
    position: relative;
  }
  [part='success-mark']::after {
    content: '';
    position: absolute;
    left: 50%;
    top: 45%;
    width: 0.75rem;
    height: 1.375rem;
    border: solid var(--_success);
    border-width: 0 3px 3px 0;
    transform: translate(-50%, -50%) rotate(45deg);
  }
`;
