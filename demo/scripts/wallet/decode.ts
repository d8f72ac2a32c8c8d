// QR decoding for the wallet: from pixels (the checkout's canvas, a photo) with jsQR, and from the camera with
// BarcodeDetector where the browser has it.
import jsQRModule from 'jsqr';

// jsqr is CommonJS with `exports.default`: a bundler hands over the function, TypeScript (NodeNext) sees the exports object.
type JsQR = typeof jsQRModule.default;
const jsQR: JsQR = typeof jsQRModule === 'function' ? (jsQRModule as unknown as JsQR) : jsQRModule.default;

/** The text of the QR drawn on `canvas`, or undefined when none is found. */
export function decodeCanvas(canvas: HTMLCanvasElement): string | undefined {
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context || canvas.width === 0 || canvas.height === 0) return undefined;
  const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
  return jsQR(data, width, height, { inversionAttempts: 'attemptBoth' })?.data || undefined;
}

/** The text of the QR in an image file (a screenshot or a photo of a screen). */
export async function decodeImageFile(file: Blob): Promise<string | undefined> {
  const bitmap = await createImageBitmap(file);
  // Large photos are scaled down: jsQR is quicker and no less accurate at about 1000 px.
  const scale = Math.min(1, 1000 / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return decodeCanvas(canvas);
}

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorClass = new (options: { formats: string[] }) => BarcodeDetectorLike;

function barcodeDetector(): BarcodeDetectorClass | undefined {
  return (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
}

/** Whether this browser can scan with the camera here (BarcodeDetector, and a secure context for getUserMedia). */
export const canScanWithCamera = () => Boolean(barcodeDetector() && navigator.mediaDevices?.getUserMedia);

/** Shows the back camera in `video` and resolves with the first QR it sees; `signal` stops it. */
export async function scanWithCamera(video: HTMLVideoElement, signal: AbortSignal): Promise<string | undefined> {
  const Detector = barcodeDetector();
  if (!Detector) throw new Error('This browser has no BarcodeDetector: upload a photo of the QR or paste its text.');
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  try {
    video.srcObject = stream;
    await video.play();
    const detector = new Detector({ formats: ['qr_code'] });
    while (!signal.aborted) {
      const [code] = await detector.detect(video).catch(() => []);
      if (code?.rawValue) return code.rawValue;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return undefined;
  } finally {
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  }
}
