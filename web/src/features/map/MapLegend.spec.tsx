import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { MapLegend, ThreatLegend } from './MapLegend';
import { ALL_LAYERS, DEFAULT_VISIBILITY, eventLayer, NO_LAYERS, SEVERITY_STYLE, type LayerId, type LayerVisibility } from './map-layers';
import { cameraImage, eventPin, verifiedReportPin } from './marker-style';
import { inLanguage } from '@/test/in-language';

const counts = Object.fromEntries(ALL_LAYERS.map((id, i) => [id, i + 1])) as Record<LayerId, number>;

function Harness() {
  const [visibility, setVisibility] = useState<LayerVisibility>(DEFAULT_VISIBILITY);
  return (
    <MapLegend
      visibility={visibility}
      counts={counts}
      onToggle={(id) => setVisibility((v) => ({ ...v, [id]: !v[id] }))}
      onClearAll={() => setVisibility(NO_LAYERS)}
    />
  );
}

describe('MapLegend', () => {
  it('shows every group expanded with a toggle per layer and its count; all on but roadwork', () => {
    render(<Harness />);
    for (const group of ['Traffic', 'Safety', 'Infrastructure', 'Weather']) {
      expect(screen.getByRole('button', { name: group })).toHaveAttribute('aria-expanded', 'true');
    }
    expect(screen.getAllByRole('checkbox')).toHaveLength(ALL_LAYERS.length);
    expect(screen.getByRole('checkbox', { name: /Roadwork/ })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Traffic Cameras/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: `Traffic Cameras ${counts.cameras}` })).toBeInTheDocument();
  });

  it('toggles one layer, and Clear All turns every layer off', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('checkbox', { name: /Roadwork/ }));
    expect(screen.getByRole('checkbox', { name: /Roadwork/ })).toBeChecked();
    fireEvent.click(screen.getByRole('checkbox', { name: /Danger Zones/ }));
    expect(screen.getByRole('checkbox', { name: /Danger Zones/ })).not.toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(screen.getAllByRole('checkbox').filter((c) => (c as HTMLInputElement).checked)).toHaveLength(0);
  });

  it('collapses and expands a group, and the whole legend', () => {
    render(<Harness />);
    const weather = screen.getByRole('button', { name: 'Weather' });
    fireEvent.click(weather);
    expect(weather).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('checkbox', { name: /Weather Hazards/ })).not.toBeInTheDocument();
    fireEvent.click(weather);
    expect(screen.getByRole('checkbox', { name: /Weather Hazards/ })).toBeInTheDocument();

    const legend = screen.getByRole('button', { name: 'Map Layers' });
    fireEvent.click(legend);
    expect(legend).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });
});

describe('MapLegend in Spanish', () => {
  it('names the groups, the layers and the threat levels in Spanish, and the threat levels as levels (masculine)', () => {
    render(
      inLanguage(
        'es',
        <>
          <Harness />
          <ThreatLegend />
        </>,
      ),
    );
    expect(screen.getByRole('region', { name: 'Leyenda del mapa' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Capas del mapa' })).toHaveAttribute('aria-expanded', 'true');
    for (const group of ['Tráfico', 'Seguridad', 'Infraestructura', 'Clima']) expect(screen.getByRole('button', { name: group })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: `Cámaras de tráfico ${counts.cameras}` })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: `Reportes verificados (24 h) ${counts.verifiedReports}` })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Desmarcar todo' }));
    expect(screen.getAllByRole('checkbox').filter((c) => (c as HTMLInputElement).checked)).toHaveLength(0);
    const threat = screen.getByRole('region', { name: 'Nivel de amenaza' });
    expect(
      within(threat)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Alto', 'Medio', 'Bajo']);
  });
});

/** A CSS colour as the browser normalises it (jsdom turns `#b91c1c` into `rgb(185, 28, 28)`). */
const css = (colour: string) => {
  const probe = document.createElement('span');
  probe.style.color = colour;
  return probe.style.color;
};

describe('MapLegend swatches', () => {
  it("shows each traffic layer in the colour and symbol its markers are drawn with, for any event's severity", () => {
    const { container } = render(<Harness />);
    const swatch = (layer: LayerId) => container.querySelector<HTMLElement>(`[data-layer-swatch="${layer}"]`)!;
    for (const [category, layer] of [
      ['incident', 'incidents'],
      ['closure', 'closures'],
      ['roadwork', 'roadwork'],
      ['special_event', 'specialEvents'],
      ['weather', 'weather'],
      ['other', 'otherEvents'],
    ] as const) {
      expect(eventLayer({ category })).toBe(layer);
      const pin = eventPin({ category });
      expect(swatch(layer).style.backgroundColor).toBe(css(pin.color));
      expect(swatch(layer).style.color).toBe(css(pin.ink));
      expect(swatch(layer).querySelectorAll('svg > *')).toHaveLength(pin.glyph.length);
    }
    expect(swatch('verifiedReports').style.backgroundColor).toBe(css(verifiedReportPin.color));
    // the cameras' key is the very image their markers use; the zones' key holds the three threat colours
    expect(swatch('cameras')).toHaveAttribute('src', cameraImage.iconUrl);
    for (const s of Object.values(SEVERITY_STYLE)) expect(swatch('dangerZones').style.background).toContain(s.color);
  });
});

describe('ThreatLegend', () => {
  it('lists High, Medium and Low', () => {
    render(<ThreatLegend />);
    const legend = screen.getByRole('region', { name: 'Threat Level' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['High', 'Medium', 'Low']);
    // each level as its zones are filled: outline in the colour, fill at the zone's opacity
    const high = legend.querySelector<HTMLElement>('[data-threat-swatch="high"]')!;
    expect(high.style.borderColor).toBe(css(SEVERITY_STYLE.high.color));
    expect(high.style.backgroundColor).toBe('rgba(220, 38, 38, 0.7)');
  });
});
