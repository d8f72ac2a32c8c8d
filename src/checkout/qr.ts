// The payment QR: lean-qr encodes (its `nano` build: byte mode, which every payment URI is, in 2 KB gzip where
// qrcode took 7), and the element draws the module matrix itself, black on white whatever the theme (scanners need
// the contrast), with the standard quiet zone.
import { correction, generate } from 'lean-qr/nano';
import { nothing } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

/** Modules of white border on each side (ISO/IEC 18004 asks for 4). */
export const QUIET_ZONE = 4;
/** The canvas is drawn at about this many pixels wide, a whole number of pixels per module. */
const TARGET_PX = 288;

export function drawQr(canvas: HTMLCanvasElement, text: string): void {
  // At least level M (15% of the code may be damaged); a higher level when it fits in the same size.
  const code = generate(text, { minCorrectionLevel: correction.M });
  const count = code.size + 2 * QUIET_ZONE;
  const scale = Math.max(1, Math.ceil(TARGET_PX / count));
  canvas.width = canvas.height = count * scale;
  const context = canvas.getContext('2d');
  if (!context) return;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  for (let row = 0; row < code.size; row++) {
    for (let col = 0; col < code.size; col++) {
      if (code.get(col, row)) context.fillRect((col + QUIET_ZONE) * scale, (row + QUIET_ZONE) * scale, scale, scale);
    }
  }
}

/** `<canvas ${qrCode(text)}>`: draws `text` on the canvas when it is rendered, again only when `text` changes. */
class QrCodeDirective extends Directive {
  #drawn: string | undefined;

  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('qrCode() goes on a <canvas> element');
  }

  render(_text: string) {
    return nothing;
  }

  override update(part: ElementPart, [text]: [string]) {
    if (text !== this.#drawn) {
      drawQr(part.element as HTMLCanvasElement, text);
      this.#drawn = text;
    }
    return nothing;
  }
}

export const qrCode = directive(QrCodeDirective);
