// /wallet: the test wallet on its own, for a phone. It reads a checkout's QR with the camera (BarcodeDetector),
// from a photo (jsQR), or from pasted text.
import { html } from 'lit';
import { canScanWithCamera, decodeImageFile, scanWithCamera } from './wallet/decode.js';
import { TestWallet } from './wallet/test-wallet.js';

let scanning: AbortController | undefined;

async function scan(wallet: TestWallet): Promise<void> {
  if (scanning) {
    scanning.abort();
    return;
  }
  scanning = new AbortController();
  wallet.requestUpdate();
  try {
    const text = await scanWithCamera(document.getElementById('camera') as HTMLVideoElement, scanning.signal);
    if (text) wallet.accept(text);
  } catch (error) {
    wallet.fail(`The camera could not scan: ${(error as Error).message}`);
  } finally {
    scanning = undefined;
    wallet.requestUpdate();
  }
}

async function upload(wallet: TestWallet, event: Event): Promise<void> {
  const picker = event.target as HTMLInputElement;
  const file = picker.files?.[0];
  if (!file) return;
  try {
    const text = await decodeImageFile(file);
    if (text) wallet.accept(text);
    else wallet.fail('No QR found in that picture: try again closer, with the whole QR in view.');
  } catch (error) {
    wallet.fail(`That file could not be read as a picture: ${(error as Error).message}`);
  } finally {
    picker.value = '';
  }
}

customElements.define('test-wallet', TestWallet);
document.querySelector('test-wallet')!.scanControls = (w) => html`${canScanWithCamera()
    ? html`<button type="button" class="primary" @click=${() => scan(w)}>${scanning ? 'Stop the camera' : 'Scan with the camera'}</button>
        <video id="camera" class="camera" ?hidden=${!scanning} muted playsinline aria-label="Camera view"></video>`
    : html`<p class="hint">This browser cannot scan live here (no BarcodeDetector, or the page is not on https/localhost). Take a photo instead.</p>`}
  <div class="field">
    <label for="qr-photo">Photo or screenshot of the QR</label>
    <input id="qr-photo" type="file" accept="image/*" capture="environment" @change=${(e: Event) => upload(w, e)} />
  </div>`;
