import type { TrafficEvent } from './map.api';
import { ALL_LAYERS, eventLayer, SEVERITY_STYLE } from './map-layers';
import { eventPin, LAYER_LOOK, pinMarkup, verifiedReportPin, withAlpha, zoneSwatchStyle, type PinLook } from './marker-style';

const CATEGORIES: TrafficEvent['category'][] = ['incident', 'closure', 'roadwork', 'special_event', 'weather', 'other'];

describe('marker looks', () => {
  it("draws every traffic event in its layer's colour and symbol, whatever its severity", () => {
    for (const category of CATEGORIES) {
      const layerLook = LAYER_LOOK[eventLayer({ category })];
      expect(eventPin({ category })).toBe(layerLook);
      expect(pinMarkup(eventPin({ category }))).toContain(`background:${(layerLook as PinLook).color}`);
    }
    // an unknown category is an "other" alert, on the map and in the legend alike
    expect(eventPin({ category: 'volcano' as TrafficEvent['category'] })).toBe(LAYER_LOOK.otherEvents);
    expect(verifiedReportPin).toBe(LAYER_LOOK.verifiedReports);
  });

  it('gives each pin layer its own colour, none of them a threat level colour', () => {
    const pins = ALL_LAYERS.map((id) => LAYER_LOOK[id]).filter((l): l is PinLook => l.kind === 'pin');
    expect(pins).toHaveLength(7);
    const colours = pins.map((p) => p.color.toLowerCase());
    expect(new Set(colours).size).toBe(colours.length);
    for (const s of Object.values(SEVERITY_STYLE)) expect(colours).not.toContain(s.color.toLowerCase());
  });

  it("keys the danger zones with their threat levels' colours, filled as the map fills them", () => {
    expect(LAYER_LOOK.dangerZones).toEqual({ kind: 'zone', colors: ['#dc2626', '#f59e0b', '#eab308'] });
    expect(withAlpha('#dc2626', 0.7)).toBe('rgba(220, 38, 38, 0.7)');
    expect(zoneSwatchStyle('low')).toEqual({ borderColor: '#eab308', backgroundColor: 'rgba(234, 179, 8, 0.3)' });
  });

  it('draws glyphs from fixed shapes only', () => {
    expect(pinMarkup(LAYER_LOOK.closures as PinLook)).toBe(
      '<span class="map-pin-face" style="background:#1f2937;color:#ffffff"><svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false"><rect x="2" y="6.5" width="12" height="3" rx="1" fill="currentColor"/></svg></span>',
    );
  });
});
