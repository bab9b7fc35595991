import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { MapLegend, ThreatLegend } from './MapLegend';
import { ALL_LAYERS, DEFAULT_VISIBILITY, NO_LAYERS, type LayerId, type LayerVisibility } from './map-layers';

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

describe('ThreatLegend', () => {
  it('lists High, Medium and Low', () => {
    render(<ThreatLegend />);
    const legend = screen.getByRole('region', { name: 'Threat Level' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['High', 'Medium', 'Low']);
  });
});
