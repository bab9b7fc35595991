/**
 * Flat product illustrations for the seeded catalogue, drawn as SVG so the store works offline and
 * ships no binary assets. Each product names one pictogram ("art"); the colour comes from its category.
 * Output is deterministic: the same product always gets the same picture (and the same ETag).
 */

export const ART_KINDS = [
  'first-aid',
  'go-bag',
  'radio',
  'flashlight',
  'lantern',
  'power-bank',
  'dash-cam',
  'smoke-alarm',
  'extinguisher',
  'vest',
  'helmet',
  'gloves',
  'triangle',
  'cone',
  'flare',
  'whistle',
  'blanket',
  'tourniquet',
  'bandage',
  'water',
  'jump-starter',
  'glass-breaker',
  'personal-alarm',
  'stop-paddle',
  'barricade',
  'goggles',
  'mask',
  'thermometer',
  'co-alarm',
  'food',
  'headlamp',
  'tire-gauge',
] as const;
export type ArtKind = (typeof ART_KINDS)[number];

const INK = '#1f2937';
const LIGHT = '#ffffff';
const YELLOW = '#facc15';
const ORANGE = '#f97316';
const GREY = '#9ca3af';

/** Each drawing fits a 400 x 300 canvas, centred near (200, 150). `c` is the category colour. */
const ART: Record<ArtKind, (c: string) => string> = {
  'first-aid': (c) => `
    <rect x="120" y="95" width="160" height="120" rx="14" fill="${c}"/>
    <path d="M170 95v-18a10 10 0 0 1 10-10h40a10 10 0 0 1 10 10v18" fill="none" stroke="${INK}" stroke-width="10"/>
    <rect x="188" y="120" width="24" height="70" rx="3" fill="${LIGHT}"/><rect x="165" y="143" width="70" height="24" rx="3" fill="${LIGHT}"/>`,
  'go-bag': (c) => `
    <path d="M165 95a35 30 0 0 1 70 0" fill="none" stroke="${INK}" stroke-width="10"/>
    <rect x="130" y="90" width="140" height="150" rx="30" fill="${c}"/>
    <rect x="155" y="160" width="90" height="60" rx="12" fill="${LIGHT}" opacity=".85"/>
    <rect x="190" y="175" width="20" height="30" rx="2" fill="${c}"/><rect x="185" y="180" width="30" height="20" rx="2" fill="${c}"/>`,
  radio: (c) => `
    <line x1="250" y1="100" x2="290" y2="40" stroke="${INK}" stroke-width="6" stroke-linecap="round"/>
    <rect x="110" y="100" width="180" height="120" rx="16" fill="${c}"/>
    <circle cx="160" cy="160" r="34" fill="${LIGHT}"/><circle cx="160" cy="160" r="20" fill="${INK}" opacity=".8"/>
    <rect x="215" y="125" width="55" height="24" rx="4" fill="${LIGHT}"/><circle cx="230" cy="180" r="9" fill="${YELLOW}"/><circle cx="258" cy="180" r="9" fill="${LIGHT}"/>
    <rect x="135" y="220" width="130" height="12" rx="6" fill="${INK}" opacity=".5"/>`,
  flashlight: (c) => `
    <path d="M280 110l70-30v140l-70-30z" fill="${YELLOW}" opacity=".55"/>
    <rect x="90" y="125" width="150" height="50" rx="12" fill="${c}"/>
    <path d="M240 115h40v70h-40z" fill="${INK}"/><rect x="130" y="140" width="28" height="20" rx="4" fill="${LIGHT}"/>`,
  lantern: (c) => `
    <path d="M175 80a25 20 0 0 1 50 0" fill="none" stroke="${INK}" stroke-width="8"/>
    <rect x="160" y="80" width="80" height="22" rx="6" fill="${INK}"/>
    <rect x="165" y="102" width="70" height="100" rx="10" fill="${YELLOW}"/><rect x="185" y="115" width="30" height="75" rx="8" fill="${LIGHT}" opacity=".8"/>
    <rect x="150" y="202" width="100" height="30" rx="8" fill="${c}"/>`,
  'power-bank': (c) => `
    <rect x="140" y="70" width="120" height="170" rx="18" fill="${c}"/>
    <rect x="160" y="95" width="80" height="26" rx="5" fill="${LIGHT}"/>
    <rect x="164" y="99" width="55" height="18" rx="3" fill="${YELLOW}"/>
    <path d="M205 140l-25 45h20l-8 35 30-50h-20l10-30z" fill="${LIGHT}"/>`,
  'dash-cam': (c) => `
    <rect x="115" y="100" width="170" height="100" rx="18" fill="${c}"/>
    <circle cx="200" cy="150" r="38" fill="${INK}"/><circle cx="200" cy="150" r="22" fill="#374151"/><circle cx="192" cy="142" r="7" fill="${LIGHT}" opacity=".7"/>
    <circle cx="265" cy="118" r="6" fill="#ef4444"/><rect x="175" y="70" width="50" height="30" rx="6" fill="${INK}"/>`,
  'smoke-alarm': (c) => `
    <circle cx="200" cy="150" r="85" fill="${LIGHT}" stroke="${c}" stroke-width="12"/>
    <circle cx="200" cy="150" r="45" fill="none" stroke="${GREY}" stroke-width="6" stroke-dasharray="10 8"/>
    <circle cx="200" cy="150" r="12" fill="#ef4444"/>`,
  'co-alarm': (c) => `
    <rect x="130" y="80" width="140" height="150" rx="20" fill="${LIGHT}" stroke="${c}" stroke-width="10"/>
    <rect x="155" y="105" width="90" height="40" rx="6" fill="${INK}"/><text x="200" y="134" font-family="Arial, sans-serif" font-size="24" font-weight="700" fill="${YELLOW}" text-anchor="middle">CO</text>
    <g fill="${GREY}"><circle cx="170" cy="175" r="5"/><circle cx="190" cy="175" r="5"/><circle cx="210" cy="175" r="5"/><circle cx="230" cy="175" r="5"/><circle cx="180" cy="195" r="5"/><circle cx="200" cy="195" r="5"/><circle cx="220" cy="195" r="5"/></g>`,
  extinguisher: (c) => `
    <path d="M185 75h40l25 15" fill="none" stroke="${INK}" stroke-width="8" stroke-linecap="round"/>
    <path d="M250 90c20 10 25 40 15 60" fill="none" stroke="${INK}" stroke-width="6"/>
    <rect x="165" y="80" width="50" height="25" rx="6" fill="${INK}"/>
    <rect x="155" y="100" width="70" height="150" rx="30" fill="#dc2626"/><rect x="165" y="150" width="50" height="40" rx="4" fill="${LIGHT}"/>
    <rect x="175" y="162" width="30" height="6" fill="${c}"/><rect x="175" y="174" width="22" height="6" fill="${c}"/>`,
  vest: () => `
    <path d="M150 70l30 0 20 40 20-40 30 0 30 40v140h-70v-70h-20v70h-70v-140z" fill="${ORANGE}"/>
    <rect x="120" y="165" width="160" height="16" fill="#e5e7eb"/><rect x="120" y="205" width="160" height="16" fill="#e5e7eb"/>`,
  helmet: (c) => `
    <path d="M110 190a90 90 0 0 1 180 0z" fill="${c}"/>
    <rect x="90" y="188" width="220" height="22" rx="10" fill="${INK}"/>
    <rect x="192" y="105" width="16" height="85" rx="6" fill="${LIGHT}" opacity=".5"/>`,
  gloves: (c) => `
    <path d="M150 230v-80l-20-35a10 10 0 0 1 18-10l17 25v-60a10 10 0 0 1 20 0v50-62a10 10 0 0 1 20 0v62-55a10 10 0 0 1 20 0v60-45a10 10 0 0 1 20 0v95c0 30-15 55-35 55z" fill="${c}"/>
    <rect x="145" y="220" width="100" height="26" rx="6" fill="${YELLOW}"/>`,
  triangle: () => `
    <path d="M200 55l115 195h-230z" fill="none" stroke="#dc2626" stroke-width="22" stroke-linejoin="round"/>
    <path d="M200 120l55 95h-110z" fill="${ORANGE}" opacity=".35"/>
    <rect x="170" y="250" width="60" height="12" rx="4" fill="${INK}"/>`,
  cone: () => `
    <path d="M175 60h50l50 180h-150z" fill="${ORANGE}"/>
    <path d="M163 105h74l9 35h-92z" fill="${LIGHT}"/><path d="M150 165h100l9 35h-118z" fill="${LIGHT}"/>
    <rect x="105" y="238" width="190" height="18" rx="5" fill="${INK}"/>`,
  flare: (c) => `
    <circle cx="200" cy="150" r="80" fill="${YELLOW}" opacity=".35"/>
    <circle cx="200" cy="150" r="55" fill="${c}"/><circle cx="200" cy="150" r="35" fill="${ORANGE}"/>
    <g fill="${LIGHT}"><circle cx="200" cy="128" r="7"/><circle cx="222" cy="150" r="7"/><circle cx="200" cy="172" r="7"/><circle cx="178" cy="150" r="7"/></g>`,
  whistle: (c) => `
    <path d="M130 130h120a45 45 0 1 1-45 45h-75z" fill="${c}"/>
    <rect x="130" y="110" width="60" height="22" rx="4" fill="${c}"/>
    <circle cx="250" cy="175" r="18" fill="${LIGHT}"/>
    <path d="M110 120a60 60 0 0 0 0-40M95 130a80 80 0 0 0 0-60" fill="none" stroke="${GREY}" stroke-width="5"/>`,
  blanket: (c) => `
    <path d="M110 90l180-20 10 150-180 20z" fill="#d1d5db"/>
    <path d="M110 90l90-10 10 150-90 10z" fill="#f3f4f6"/>
    <path d="M150 120l120-14M155 160l120-14M160 200l120-14" stroke="${c}" stroke-width="4" opacity=".6"/>`,
  tourniquet: (c) => `
    <path d="M120 150a80 55 0 1 0 160 0a80 55 0 1 0-160 0" fill="none" stroke="${INK}" stroke-width="22"/>
    <rect x="170" y="85" width="60" height="30" rx="6" fill="${c}"/>
    <rect x="140" y="93" width="120" height="14" rx="7" fill="${c}"/>
    <rect x="180" y="190" width="40" height="26" rx="5" fill="#dc2626"/>`,
  bandage: (c) => `
    <g transform="rotate(-25 200 150)">
      <rect x="90" y="115" width="220" height="70" rx="35" fill="#fcd9b6"/>
      <rect x="170" y="115" width="60" height="70" fill="#f5c49c"/>
      <g fill="${c}" opacity=".55"><circle cx="185" cy="135" r="4"/><circle cx="215" cy="135" r="4"/><circle cx="185" cy="165" r="4"/><circle cx="215" cy="165" r="4"/><circle cx="200" cy="150" r="4"/></g>
    </g>`,
  water: (c) => `
    <path d="M150 95h100l10 140a10 10 0 0 1-10 10h-100a10 10 0 0 1-10-10z" fill="#bfdbfe"/>
    <rect x="180" y="70" width="40" height="28" rx="6" fill="${c}"/>
    <path d="M200 140c-14 20-22 32-22 44a22 22 0 0 0 44 0c0-12-8-24-22-44z" fill="#2563eb"/>`,
  'jump-starter': (c) => `
    <rect x="125" y="85" width="150" height="130" rx="18" fill="${c}"/>
    <rect x="145" y="105" width="60" height="30" rx="5" fill="${LIGHT}"/>
    <path d="M125 195c-35 0-35 55-10 55M275 195c35 0 35 55 10 55" fill="none" stroke="${INK}" stroke-width="8"/>
    <rect x="92" y="238" width="34" height="22" rx="4" fill="#dc2626"/><rect x="275" y="238" width="34" height="22" rx="4" fill="${INK}"/>
    <path d="M240 115l-15 25h12l-5 22 18-30h-12l6-17z" fill="${YELLOW}"/>`,
  'glass-breaker': (c) => `
    <g transform="rotate(-30 200 150)">
      <rect x="188" y="110" width="24" height="140" rx="10" fill="${c}"/>
      <path d="M130 75h140l-12 40h-116z" fill="${INK}"/><path d="M130 75l-12 20 12 20z" fill="${GREY}"/><path d="M270 75l12 20-12 20z" fill="${GREY}"/>
    </g>
    <path d="M300 210l25-10M300 225l28 5M295 240l18 18" stroke="${GREY}" stroke-width="5" stroke-linecap="round"/>`,
  'personal-alarm': (c) => `
    <circle cx="200" cy="85" r="22" fill="none" stroke="${GREY}" stroke-width="8"/>
    <rect x="150" y="100" width="100" height="140" rx="45" fill="${c}"/>
    <circle cx="200" cy="150" r="22" fill="${LIGHT}"/><rect x="185" y="195" width="30" height="18" rx="9" fill="${YELLOW}"/>
    <path d="M280 130a40 40 0 0 1 0 50M300 115a65 65 0 0 1 0 80" fill="none" stroke="${c}" stroke-width="6" stroke-linecap="round"/>`,
  'stop-paddle': () => `
    <rect x="192" y="180" width="16" height="95" rx="5" fill="${INK}"/>
    <path d="M170 55h60l42 42v60l-42 42h-60l-42-42v-60z" fill="#dc2626" stroke="${LIGHT}" stroke-width="6"/>
    <text x="200" y="140" font-family="Arial, sans-serif" font-size="40" font-weight="700" fill="${LIGHT}" text-anchor="middle">STOP</text>`,
  barricade: () => `
    <rect x="95" y="110" width="210" height="50" rx="6" fill="${LIGHT}" stroke="${INK}" stroke-width="4"/>
    <path d="M115 110l-20 25v-25zM155 110l-40 50h30l40-50zM215 110l-40 50h30l40-50zM275 110l-40 50h30l40-50z" fill="${ORANGE}"/>
    <path d="M120 160l-25 95M280 160l25 95M130 160l20 95M270 160l-20 95" stroke="${INK}" stroke-width="8" stroke-linecap="round"/>
    <circle cx="110" cy="95" r="12" fill="${YELLOW}"/><circle cx="290" cy="95" r="12" fill="${YELLOW}"/>`,
  goggles: (c) => `
    <path d="M85 150h230" stroke="${INK}" stroke-width="10"/>
    <rect x="110" y="110" width="180" height="80" rx="38" fill="${c}"/>
    <ellipse cx="160" cy="150" rx="36" ry="26" fill="#bae6fd"/><ellipse cx="240" cy="150" rx="36" ry="26" fill="#bae6fd"/>
    <path d="M185 175a15 15 0 0 1 30 0" fill="${c}"/>`,
  mask: (c) => `
    <path d="M120 120c30-35 130-35 160 0v50c-20 50-140 50-160 0z" fill="#f3f4f6" stroke="${GREY}" stroke-width="4"/>
    <path d="M120 130l-35-25M280 130l35-25M120 165l-35 15M280 165l35 15" stroke="${INK}" stroke-width="4"/>
    <circle cx="200" cy="160" r="22" fill="${c}"/><g fill="${LIGHT}"><circle cx="193" cy="153" r="3"/><circle cx="207" cy="153" r="3"/><circle cx="193" cy="167" r="3"/><circle cx="207" cy="167" r="3"/></g>`,
  thermometer: (c) => `
    <rect x="145" y="70" width="110" height="170" rx="24" fill="${LIGHT}" stroke="${c}" stroke-width="8"/>
    <rect x="165" y="95" width="70" height="40" rx="6" fill="${INK}"/><text x="200" y="124" font-family="Arial, sans-serif" font-size="22" font-weight="700" fill="#86efac" text-anchor="middle">98.6</text>
    <circle cx="200" cy="185" r="22" fill="${c}"/>
    <path d="M255 140h45" stroke="${GREY}" stroke-width="10" stroke-linecap="round"/>`,
  food: (c) => `
    <rect x="120" y="80" width="160" height="160" rx="10" fill="${c}"/>
    <rect x="140" y="110" width="120" height="60" rx="6" fill="${LIGHT}"/>
    <path d="M165 150c10-25 60-25 70 0" fill="${YELLOW}"/><path d="M160 150h80" stroke="${INK}" stroke-width="5"/>
    <rect x="140" y="190" width="80" height="10" rx="5" fill="${LIGHT}" opacity=".7"/><rect x="140" y="208" width="55" height="10" rx="5" fill="${LIGHT}" opacity=".7"/>`,
  headlamp: (c) => `
    <path d="M235 130l90-40v120l-90-40z" fill="${YELLOW}" opacity=".5"/>
    <ellipse cx="170" cy="150" rx="95" ry="60" fill="none" stroke="${INK}" stroke-width="14"/>
    <rect x="195" y="112" width="50" height="76" rx="14" fill="${c}"/><circle cx="230" cy="150" r="18" fill="${LIGHT}"/>`,
  'tire-gauge': (c) => `
    <circle cx="200" cy="150" r="85" fill="${INK}"/><circle cx="200" cy="150" r="70" fill="none" stroke="${GREY}" stroke-width="18" stroke-dasharray="4 10"/>
    <circle cx="200" cy="150" r="40" fill="${c}"/><path d="M200 150l35-40" stroke="${YELLOW}" stroke-width="8" stroke-linecap="round"/>`,
};

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** A complete SVG document: tinted background, a soft disc and the pictogram. `title` is its accessible name. */
export function renderIllustration(art: ArtKind, color: string, title: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" width="400" height="300" role="img" aria-label="${escapeXml(title)}">
  <title>${escapeXml(title)}</title>
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f8fafc"/><stop offset="1" stop-color="${color}" stop-opacity=".22"/></linearGradient></defs>
  <rect width="400" height="300" fill="url(#bg)"/>
  <circle cx="200" cy="155" r="125" fill="${color}" opacity=".08"/>
  <ellipse cx="200" cy="268" rx="120" ry="10" fill="${INK}" opacity=".08"/>${ART[art](color)}
</svg>`;
}
