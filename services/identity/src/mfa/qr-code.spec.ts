/** @jest-environment jsdom */
import { TextEncoder } from 'node:util';
import { qrCodeSvg } from './qr-code';

// jsdom (here for its DOMParser, the browser's XML parser) lacks the TextEncoder qrcode needs.
globalThis.TextEncoder ??= TextEncoder as typeof globalThis.TextEncoder;

// The server's type-check has no DOM library: the little of it used here.
interface XmlElement {
  namespaceURI: string | null;
  localName: string;
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
}
const { DOMParser } = globalThis as unknown as {
  DOMParser: new () => {
    parseFromString(text: string, type: string): { documentElement: XmlElement; getElementsByTagName(name: string): ArrayLike<XmlElement> };
  };
};

const URI = 'otpauth://totp/Beacon:pat%40example.org?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Beacon&algorithm=SHA1&digits=6&period=30';

describe('qrCodeSvg', () => {
  it('has no "#", so the data URL auth-js builds from it keeps the whole image', async () => {
    const svg = await qrCodeSvg(URI);
    expect(svg).not.toContain('#');
    // exactly what auth-js does with the enrolment's qr_code (no escaping)
    const url = new URL(`data:image/svg+xml;utf-8,${svg}`);
    expect(url.hash).toBe('');
    expect(decodeURIComponent(url.pathname)).toBe(`image/svg+xml;utf-8,${svg}`);
  });

  it('is a well-formed SVG document with light background and dark modules', async () => {
    const svg = await qrCodeSvg(URI);
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const root = doc.documentElement;
    expect(root.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(root.localName).toBe('svg');
    expect(root.getAttribute('viewBox')).toMatch(/^0 0 \d+ \d+$/);
    const [background, modules] = Array.from(root.getElementsByTagName('path'));
    expect(background.getAttribute('fill')).toBe('rgb(255,255,255)');
    expect(modules.getAttribute('stroke')).toBe('rgb(0,0,0)');
    expect(modules.getAttribute('d')!.length).toBeGreaterThan(100);
  });
});
