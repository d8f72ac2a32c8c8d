// /wallet: the test wallet on its own, for a phone. It reads a checkout's QR with the camera (BarcodeDetector),
// from a photo (jsQR), or from pasted text.
import { html } from 'lit';
import { canScanWithCamera, decodeImageFile, scanWithCamera } from './wallet/decode.js';
import { WalletPanel } from './wallet/wallet-panel.js';

let scanning: AbortController | undefined;

async function scan(panel: WalletPanel): Promise<void> {
  if (scanning) {
    scanning.abort();
    return;
  }
  scanning = new AbortController();
  panel.render();
  try {
    const text = await scanWithCamera(document.getElementById('camera') as HTMLVideoElement, scanning.signal);
    if (text) panel.accept(text);
  } catch (error) {
    panel.fail(`The camera could not scan: ${(error as Error).message}`);
  } finally {
    scanning = undefined;
    panel.render();
  }
}

async function upload(panel: WalletPanel, event: Event): Promise<void> {
  const picker = event.target as HTMLInputElement;
  const file = picker.files?.[0];
  if (!file) return;
  try {
    const text = await decodeImageFile(file);
    if (text) panel.accept(text);
    else panel.fail('No QR found in that picture: try again closer, with the whole QR in view.');
  } catch (error) {
    panel.fail(`That file could not be read as a picture: ${(error as Error).message}`);
  } finally {
    picker.value = '';
  }
}

const panel = new WalletPanel(document.getElementById('wallet')!, {
  scanControls: (p) => html`${canScanWithCamera()
      ? html`<button type="button" class="primary" @click=${() => scan(p)}>${scanning ? 'Stop the camera' : 'Scan with the camera'}</button>
          <video id="camera" class="camera" ?hidden=${!scanning} muted playsinline aria-label="Camera view"></video>`
      : html`<p class="hint">This browser cannot scan live here (no BarcodeDetector, or the page is not on https/localhost). Take a photo instead.</p>`}
    <div class="field">
      <label for="qr-photo">Photo or screenshot of the QR</label>
      <input id="qr-photo" type="file" accept="image/*" capture="environment" @change=${(e: Event) => upload(p, e)} />
    </div>`,
});
void panel.start();
