import { useId, useState } from 'react';
import { LAYER_GROUPS, SEVERITY_STYLE, type LayerGroup, type LayerId, type LayerVisibility } from './map-layers';
import { ChevronDown, ChevronRight } from 'lucide-react';

const LAYER_SWATCH: Record<LayerId, string> = {
  incidents: '#dc2626',
  closures: '#7f1d1d',
  roadwork: '#ea580c',
  specialEvents: '#7c3aed',
  otherEvents: '#64748b',
  verifiedReports: '#be185d',
  dangerZones: '#f59e0b',
  cameras: '#2563eb',
  weather: '#0891b2',
};

export interface MapLegendProps {
  visibility: LayerVisibility;
  counts: Record<LayerId, number>;
  onToggle: (layer: LayerId) => void;
  onClearAll: () => void;
}

/** The collapsible legend: 'Clear All', four collapsible category groups (all start expanded), a toggle per layer. */
export function MapLegend({ visibility, counts, onToggle, onClearAll }: MapLegendProps) {
  const [open, setOpen] = useState(true);
  const [expanded, setExpanded] = useState<Record<LayerGroup['id'], boolean>>({ traffic: true, safety: true, infrastructure: true, weather: true });
  const bodyId = useId();
  return (
    <section className="card map-legend" aria-label="Map legend">
      <div className="row-between">
        <button type="button" className="legend-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((o) => !o)}>
          {open ? <ChevronDown aria-hidden="true" size={16} /> : <ChevronRight aria-hidden="true" size={16} />} Map Layers
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onClearAll}>
          Clear All
        </button>
      </div>
      <div id={bodyId} hidden={!open}>
        {LAYER_GROUPS.map((group) => {
          const groupBody = `${bodyId}-${group.id}`;
          return (
            <div key={group.id} className="legend-group">
              <button
                type="button"
                className="legend-group-toggle"
                aria-expanded={expanded[group.id]}
                aria-controls={groupBody}
                onClick={() => setExpanded((e) => ({ ...e, [group.id]: !e[group.id] }))}
              >
                {expanded[group.id] ? <ChevronDown aria-hidden="true" size={16} /> : <ChevronRight aria-hidden="true" size={16} />} {group.label}
              </button>
              <ul id={groupBody} hidden={!expanded[group.id]} className="legend-layers">
                {group.layers.map((layer) => (
                  <li key={layer.id}>
                    <label className="legend-layer">
                      <input type="checkbox" checked={visibility[layer.id]} onChange={() => onToggle(layer.id)} data-testid={`layer-toggle-${layer.id}`} />
                      <span className="legend-swatch" style={{ background: LAYER_SWATCH[layer.id] }} aria-hidden="true" />
                      <span className="legend-label">{layer.label}</span>
                      <span className="legend-count">{counts[layer.id]}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** The threat-level key for zones and event markers. */
export function ThreatLegend() {
  return (
    <section className="card threat-legend" aria-labelledby="threat-legend-title">
      <h2 id="threat-legend-title" className="legend-title">
        Threat Level
      </h2>
      <ul className="legend-layers">
        {(['high', 'medium', 'low'] as const).map((s) => (
          <li key={s} className="legend-layer">
            <span
              className="legend-swatch"
              style={{ background: SEVERITY_STYLE[s].color, opacity: Math.max(SEVERITY_STYLE[s].fillOpacity, 0.6) }}
              aria-hidden="true"
            />
            <span>{SEVERITY_STYLE[s].label}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
