import cameraPinUrl from 'leaflet/dist/images/marker-icon.png';
import cameraPinRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import cameraPinShadowUrl from 'leaflet/dist/images/marker-shadow.png';
import type { TrafficEvent } from './map.api';
import { eventLayer, SEVERITY_STYLE, type LayerId, type Severity } from './map-layers';

/**
 * How each layer looks on the map: the one source for the markers (SafetyMapView) and the legend's swatches
 * (MapLegend), so the key always shows the colour and symbol a marker is drawn with. Leaflet-free, so the legend
 * does not pull the map library in.
 */

/** One shape of a marker's 16x16 symbol; drawn white (or `ink`) on the layer's colour. */
export type GlyphShape =
  | { kind: 'rect'; x: number; y: number; width: number; height: number; rx?: number }
  | { kind: 'circle'; cx: number; cy: number; r: number }
  | { kind: 'path'; d: string; stroke?: number };

export interface PinLook {
  kind: 'pin';
  /** The round marker's fill. */
  color: string;
  /** The symbol's colour: white on dark fills, near-black on light ones (contrast 3:1 or more either way). */
  ink: string;
  glyph: readonly GlyphShape[];
}

/** Cameras keep Leaflet's own default marker image (the spec's "default marker"), bundled, never from a CDN. */
export interface ImageLook {
  kind: 'image';
  iconUrl: string;
  iconRetinaUrl: string;
  shadowUrl: string;
}

/** Danger zones are circles filled in their threat level's colour (SEVERITY_STYLE, keyed by the Threat Level legend). */
export interface ZoneLook {
  kind: 'zone';
  colors: readonly string[];
}

export type LayerLook = PinLook | ImageLook | ZoneLook;

const WHITE = '#ffffff';

const GLYPH = {
  incident: [
    { kind: 'rect', x: 7, y: 2, width: 2.4, height: 8, rx: 1 },
    { kind: 'circle', cx: 8.2, cy: 13, r: 1.4 },
  ],
  closure: [{ kind: 'rect', x: 2, y: 6.5, width: 12, height: 3, rx: 1 }],
  roadwork: [{ kind: 'path', d: 'M8 1.5 L13.5 14 H2.5 Z' }],
  specialEvent: [{ kind: 'path', d: 'M8 1.5 L9.9 6 L14.7 6.3 L11 9.4 L12.2 14.2 L8 11.6 L3.8 14.2 L5 9.4 L1.3 6.3 L6.1 6 Z' }],
  weather: [{ kind: 'path', d: 'M4.5 12.5 A3 3 0 0 1 4.8 6.6 A4 4 0 0 1 12.4 7.4 A2.6 2.6 0 0 1 12 12.5 Z' }],
  other: [
    { kind: 'circle', cx: 8, cy: 4, r: 1.4 },
    { kind: 'rect', x: 6.9, y: 6.5, width: 2.2, height: 7, rx: 1 },
  ],
  verifiedReport: [
    { kind: 'path', d: 'M3 1.5 V14.5', stroke: 2 },
    { kind: 'path', d: 'M4 2 H13 L10.5 5.5 L13 9 H4 Z' },
  ],
} satisfies Record<string, readonly GlyphShape[]>;

/** Every layer's look. Each pin colour is a different hue, and none is a threat level's (red, amber, yellow). */
export const LAYER_LOOK: Record<LayerId, LayerLook> = {
  incidents: { kind: 'pin', color: '#b91c1c', ink: WHITE, glyph: GLYPH.incident },
  closures: { kind: 'pin', color: '#1f2937', ink: WHITE, glyph: GLYPH.closure },
  roadwork: { kind: 'pin', color: '#ea580c', ink: '#111827', glyph: GLYPH.roadwork },
  specialEvents: { kind: 'pin', color: '#7c3aed', ink: WHITE, glyph: GLYPH.specialEvent },
  otherEvents: { kind: 'pin', color: '#475569', ink: WHITE, glyph: GLYPH.other },
  weather: { kind: 'pin', color: '#0e7490', ink: WHITE, glyph: GLYPH.weather },
  verifiedReports: { kind: 'pin', color: '#be185d', ink: WHITE, glyph: GLYPH.verifiedReport },
  cameras: { kind: 'image', iconUrl: cameraPinUrl, iconRetinaUrl: cameraPinRetinaUrl, shadowUrl: cameraPinShadowUrl },
  dangerZones: { kind: 'zone', colors: [SEVERITY_STYLE.high.color, SEVERITY_STYLE.medium.color, SEVERITY_STYLE.low.color] },
};

/** The pin a traffic event is drawn with: the look of the layer that shows it. */
export function eventPin(event: Pick<TrafficEvent, 'category'>): PinLook {
  return LAYER_LOOK[eventLayer(event)] as PinLook;
}

export const verifiedReportPin = LAYER_LOOK.verifiedReports as PinLook;
export const cameraImage = LAYER_LOOK.cameras as ImageLook;

/** A glyph as static SVG markup for Leaflet's divIcon (numbers and fixed paths only: never data). */
export function glyphMarkup(look: PinLook, size = 14): string {
  const shapes = look.glyph
    .map((s) => {
      if (s.kind === 'rect') return `<rect x="${s.x}" y="${s.y}" width="${s.width}" height="${s.height}" rx="${s.rx ?? 0}" fill="currentColor"/>`;
      if (s.kind === 'circle') return `<circle cx="${s.cx}" cy="${s.cy}" r="${s.r}" fill="currentColor"/>`;
      return s.stroke ? `<path d="${s.d}" stroke="currentColor" stroke-width="${s.stroke}" fill="none"/>` : `<path d="${s.d}" fill="currentColor"/>`;
    })
    .join('');
  return `<svg viewBox="0 0 16 16" width="${size}" height="${size}" aria-hidden="true" focusable="false">${shapes}</svg>`;
}

/** A round pin's whole markup (its face in the layer's colour around the glyph), for Leaflet's divIcon. */
export function pinMarkup(look: PinLook): string {
  return `<span class="map-pin-face" style="background:${look.color};color:${look.ink}">${glyphMarkup(look)}</span>`;
}

/** `#rrggbb` at `alpha`, as Leaflet paints a zone's fill (fillColor at fillOpacity). */
export function withAlpha(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** A threat level's key as its zones are drawn: the outline in its colour, the fill in it at the zone's opacity. */
export function zoneSwatchStyle(severity: Severity): { borderColor: string; backgroundColor: string } {
  const style = SEVERITY_STYLE[severity];
  return { borderColor: style.color, backgroundColor: withAlpha(style.color, style.fillOpacity) };
}
