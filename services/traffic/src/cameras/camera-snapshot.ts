/**
 * Draws the still a seeded demo camera "sends": a freeway seen from a pole, traffic that moves from one minute
 * to the next, and the caption and clock a real DOT camera burns into its frames. Everything the picture shows
 * about the camera is escaped: the text comes from the database.
 */
import { seededRandom } from '@beacon/common';

export interface SnapshotSubject {
  roadway: string;
  direction: string | null;
  description: string | null;
}

const WIDTH = 640;
const HEIGHT = 360;
const HORIZON = 150;
const CAR_COLOURS = ['#f5f5f5', '#1f2937', '#b91c1c', '#1d4ed8', '#9ca3af', '#4b5563', '#e5e7eb', '#065f46', '#78350f'];

export function renderSnapshotSvg(subject: SnapshotSubject, at: Date, seedKey: string): string {
  const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Phoenix', hour: 'numeric', hourCycle: 'h23' }).format(at));
  const night = hour < 6 || hour >= 19;
  // the scene changes each minute, the same for everyone looking at this camera in that minute
  const random = seededRandom(hash(`${seedKey}:${Math.floor(at.getTime() / 60000)}`));
  const sky = night ? ['#0b1026', '#1e293b'] : ['#7db9e8', '#dbeafe'];
  const ground = night ? '#1c1917' : '#a8a29e';
  const road = night ? '#262626' : '#57534e';
  const caption = [subject.roadway, subject.direction].filter(Boolean).join(' ');
  const location = subject.description ?? '';

  const cars: { y: number; svg: string }[] = [];
  const count = 6 + Math.floor(random() * 10);
  for (let i = 0; i < count; i++) {
    const depth = random(); // 0 far .. 1 near
    const y = HORIZON + 8 + depth * (HEIGHT - HORIZON - 30);
    const roadHalf = 20 + depth * 300;
    const lane = Math.floor(random() * 6); // six lanes, three each way
    const x = WIDTH / 2 - roadHalf + ((lane + 0.5) / 6) * roadHalf * 2;
    const w = 8 + depth * 46;
    const h = w * 0.55;
    const colour = CAR_COLOURS[Math.floor(random() * CAR_COLOURS.length)];
    const lights = night
      ? `<circle cx="${f(x - w * 0.3)}" cy="${f(y + h * 0.4)}" r="${f(w * 0.08)}" fill="${lane < 3 ? '#fde68a' : '#ef4444'}"/><circle cx="${f(x + w * 0.3)}" cy="${f(y + h * 0.4)}" r="${f(w * 0.08)}" fill="${lane < 3 ? '#fde68a' : '#ef4444'}"/>`
      : '';
    cars.push({
      y,
      svg: `<rect x="${f(x - w / 2)}" y="${f(y - h / 2)}" width="${f(w)}" height="${f(h)}" rx="${f(w * 0.15)}" fill="${colour}" stroke="#111" stroke-width="0.6"/>${lights}`,
    });
  }

  const dashes: string[] = [];
  for (const side of [-1, 1]) {
    for (const t of [1 / 3, 2 / 3]) {
      for (let k = 0; k < 9; k++) {
        const d0 = (k + 0.2) / 9;
        const d1 = (k + 0.6) / 9;
        const yAt = (d: number) => HORIZON + d * (HEIGHT - HORIZON);
        const xAt = (d: number) => WIDTH / 2 + side * t * (20 + d * 300);
        dashes.push(`<line x1="${f(xAt(d0))}" y1="${f(yAt(d0))}" x2="${f(xAt(d1))}" y2="${f(yAt(d1))}" stroke="#e7e5e4" stroke-width="${f(1 + d1 * 3)}"/>`);
      }
    }
  }

  const stamp = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Phoenix',
    month: '2-digit',
    day: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  })
    .format(at)
    .replace(',', '');

  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeXml(`Traffic camera: ${caption} ${location}`.trim())}">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/></linearGradient></defs>
<rect width="${WIDTH}" height="${HORIZON}" fill="url(#sky)"/>
<path d="M0 ${HORIZON - 18} L80 ${HORIZON - 34} L150 ${HORIZON - 22} L240 ${HORIZON - 46} L330 ${HORIZON - 20} L420 ${HORIZON - 38} L520 ${HORIZON - 24} L640 ${HORIZON - 40} L640 ${HORIZON} L0 ${HORIZON} Z" fill="${night ? '#111827' : '#8b7d6b'}"/>
<rect y="${HORIZON}" width="${WIDTH}" height="${HEIGHT - HORIZON}" fill="${ground}"/>
<path d="M${WIDTH / 2 - 20} ${HORIZON} L${WIDTH / 2 + 20} ${HORIZON} L${WIDTH / 2 + 320} ${HEIGHT} L${WIDTH / 2 - 320} ${HEIGHT} Z" fill="${road}"/>
<path d="M${WIDTH / 2 - 1} ${HORIZON} L${WIDTH / 2 + 1} ${HORIZON} L${WIDTH / 2 + 6} ${HEIGHT} L${WIDTH / 2 - 6} ${HEIGHT} Z" fill="#a8a29e"/>
${dashes.join('')}
${cars
  .sort((a, b) => a.y - b.y)
  .map((c) => c.svg)
  .join('')}
<rect x="0" y="${HEIGHT - 44}" width="${WIDTH}" height="44" fill="#000" fill-opacity="0.6"/>
<text x="10" y="${HEIGHT - 26}" font-family="DejaVu Sans, Arial, sans-serif" font-size="15" font-weight="bold" fill="#fff">${escapeXml(caption)}</text>
<text x="10" y="${HEIGHT - 8}" font-family="DejaVu Sans, Arial, sans-serif" font-size="13" fill="#e5e7eb">${escapeXml(location.slice(0, 55))}</text>
<text x="${WIDTH - 10}" y="${HEIGHT - 8}" text-anchor="end" font-family="DejaVu Sans Mono, Courier New, monospace" font-size="13" fill="#fff">${escapeXml(stamp)} MST</text>
</svg>
`;
}

export function escapeXml(s: string): string {
  return (
    s
      .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
      // characters XML 1.0 forbids would make the whole image unreadable
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
  );
}

function f(n: number): string {
  return n.toFixed(1);
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
