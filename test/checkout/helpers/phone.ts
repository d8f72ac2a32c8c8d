// A page as a phone shows it: a frame of the phone's size (its own viewport, so media queries see the phone's
// width), the element loaded from source, in a language. Hosted: the page `/checkout` serves. Embedded: a plain
// merchant page, its body's default margins, the shop's bar and a heading above the card.
import { fixture, html } from '@open-wc/testing';
import type { Locale } from '../../../src/checkout/index.js';
import { gatewayUrl } from './server.js';

export interface Screen {
  width: number;
  height: number;
}

/** `apiBase`: another gateway than the test's (one that never answers, to see what the card shows meanwhile). */
export async function onPhone(ref: string, screen: Screen, layout: 'hosted' | 'embedded' = 'hosted', locale: Locale = 'vi', apiBase?: string): Promise<HTMLElement> {
  const frame = await fixture<HTMLIFrameElement>(html`<iframe title="phone" width=${screen.width} height=${screen.height} style="border:0"></iframe>`);
  const element = `<pay-checkout ${layout === 'hosted' ? 'embedded="false"' : ''} locale="${locale}" payment-link-ref="${ref}" api-base="${apiBase ?? (await gatewayUrl())}"></pay-checkout>`;
  const srcdoc = `<!doctype html><html lang="${locale}"><head><meta name="viewport" content="width=device-width, initial-scale=1">
    ${layout === 'hosted' ? '<style>body{margin:0}</style>' : ''}<script type="module" src="/src/checkout/define.ts"></script></head>
    <body>${layout === 'hosted' ? `<main>${element}</main>` : `<header style="height:56px;border-bottom:1px solid #ddd">Cửa hàng</header><main><h1>Thanh toán</h1>${element}</main>`}</body></html>`;
  // Firefox may fire the load of the frame's first, empty document after the source is set: the load waited for is the one
  // whose document holds the element.
  await new Promise<void>((resolve) => {
    const loaded = () => {
      if (!frame.contentDocument?.querySelector('pay-checkout')) return;
      frame.removeEventListener('load', loaded);
      resolve();
    };
    frame.addEventListener('load', loaded);
    frame.srcdoc = srcdoc;
  });
  return frame.contentDocument!.querySelector('pay-checkout')!;
}
