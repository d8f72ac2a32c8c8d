// The tester panel's entry: defines <tester-panel>. The demo page imports it; `npm run build` also makes it one file
// of its own (demo/vite.tester-panel.config.ts), which the gateway serves to its hosted checkout page.
import { TesterPanel } from './tester/tester-panel.js';

if (!customElements.get('tester-panel')) customElements.define('tester-panel', TesterPanel);
