import * as QRCode from 'qrcode';

/**
 * The QR code of an otpauth URI as SVG markup without any '#'. auth-js hands the markup to the page as
 * `data:image/svg+xml;utf-8,<svg…>` without escaping it, and in a URL '#' starts the fragment: qrcode's
 * hex colours ('#ffffff', '#000000') would cut the image off at its first colour. rgb() means the same.
 */
export async function qrCodeSvg(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  const rgb = svg
    .trim()
    .replace(
      /#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})(?![0-9a-f])/gi,
      (_hex, r: string, g: string, b: string) => `rgb(${parseInt(r, 16)},${parseInt(g, 16)},${parseInt(b, 16)})`,
    );
  if (rgb.includes('#')) throw new Error('QR code SVG still contains "#"');
  return rgb;
}
