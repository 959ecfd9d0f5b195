// A QR symbol as one vector path, so it prints sharp at any printer resolution and costs a few
// hundred bytes per page instead of an embedded bitmap.
import QRCode from 'qrcode';

export interface QrSymbol {
  /** Modules per side, without the quiet zone. */
  size: number;
  /** SVG path in module units (y down), dark modules only, origin at the symbol's top-left. */
  path: string;
}

/**
 * Error correction M survives a scribble or a punched hole over ~15% of the symbol while keeping
 * a typical `https://host/api/qr-api/t/ABCD2345` payload at version 3-4 (big modules).
 */
export function qrSymbol(text: string): QrSymbol {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const { size, data } = qr.modules;
  let path = '';
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!data[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && data[row * size + col]) col++;
      // One rectangle per horizontal run keeps the path short.
      path += `M${start} ${row}h${col - start}v1h${start - col}z`;
    }
  }
  return { size, path };
}
