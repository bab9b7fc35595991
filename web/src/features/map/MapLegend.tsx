import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LAYER_GROUPS, threatName, VERIFIED_INCIDENT_HOURS, type LayerGroup, type LayerId, type LayerVisibility } from './map-layers';
import { LAYER_LOOK, zoneSwatchStyle, type PinLook } from './marker-style';
import { ChevronDown, ChevronRight } from 'lucide-react';

/** A 16x16 glyph drawn with React from the same shapes the map's markers are drawn with. */
function Glyph({ look }: { look: PinLook }) {
  return (
    <svg viewBox="0 0 16 16" width="11" height="11" aria-hidden="true" focusable="false">
      {look.glyph.map((shape, i) =>
        shape.kind === 'rect' ? (
          <rect key={i} x={shape.x} y={shape.y} width={shape.width} height={shape.height} rx={shape.rx ?? 0} fill="currentColor" />
        ) : shape.kind === 'circle' ? (
          <circle key={i} cx={shape.cx} cy={shape.cy} r={shape.r} fill="currentColor" />
        ) : shape.stroke ? (
          <path key={i} d={shape.d} stroke="currentColor" strokeWidth={shape.stroke} fill="none" />
        ) : (
          <path key={i} d={shape.d} fill="currentColor" />
        ),
      )}
    </svg>
  );
}

/** A layer's key: a small copy of its marker (pin colour and symbol, camera image, or zone colours) from LAYER_LOOK. */
export function LayerSwatch({ layer }: { layer: LayerId }) {
  const look = LAYER_LOOK[layer];
  if (look.kind === 'image')
    return <img className="legend-swatch legend-swatch-image" src={look.iconUrl} alt="" aria-hidden="true" data-layer-swatch={layer} />;
  if (look.kind === 'zone') {
    const share = (i: number) => `${Math.round((i * 100) / look.colors.length)}%`;
    const stops = look.colors.map((c, i) => `${c} ${share(i)} ${share(i + 1)}`).join(', ');
    return (
      <span className="legend-swatch legend-swatch-zone" style={{ background: `conic-gradient(${stops})` }} aria-hidden="true" data-layer-swatch={layer} />
    );
  }
  return (
    <span className="legend-swatch legend-swatch-pin" style={{ background: look.color, color: look.ink }} aria-hidden="true" data-layer-swatch={layer}>
      <Glyph look={look} />
    </span>
  );
}

const Chevron = ({ open }: { open: boolean }) => (open ? <ChevronDown aria-hidden="true" size={16} /> : <ChevronRight aria-hidden="true" size={16} />);

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
  const intl = useIntl();
  const title = intl.formatMessage({ id: 'map.legend.title', defaultMessage: 'Map Layers' });
  return (
    <section className="card map-legend" aria-label={intl.formatMessage({ id: 'map.legend.label', defaultMessage: 'Map legend' })}>
      <div className="row-between">
        <button type="button" className="legend-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((o) => !o)}>
          <Chevron open={open} /> {title}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onClearAll}>
          <FormattedMessage id="map.legend.clearAll" defaultMessage="Clear All" />
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
                <Chevron open={expanded[group.id]} /> {intl.formatMessage(group.label)}
              </button>
              <ul id={groupBody} hidden={!expanded[group.id]} className="legend-layers">
                {group.layers.map((layer) => (
                  <li key={layer.id}>
                    <label className="legend-layer">
                      <input type="checkbox" checked={visibility[layer.id]} onChange={() => onToggle(layer.id)} data-testid={`layer-toggle-${layer.id}`} />
                      <LayerSwatch layer={layer.id} />
                      <span className="legend-label">{intl.formatMessage(layer.label, { hours: VERIFIED_INCIDENT_HOURS })}</span>
                      <span className="legend-count">{intl.formatNumber(counts[layer.id])}</span>
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

/** The threat-level key of the danger zones (a traffic event's level is in its popup and name). */
export function ThreatLegend() {
  const intl = useIntl();
  return (
    <section className="card threat-legend" aria-labelledby="threat-legend-title">
      <h2 id="threat-legend-title" className="legend-title">
        <FormattedMessage id="map.threatLegend.title" defaultMessage="Threat Level" />
      </h2>
      <p className="muted small legend-note">
        <FormattedMessage id="map.threatLegend.note" defaultMessage="Danger zones are drawn in their threat level's colour." />
      </p>
      <ul className="legend-layers">
        {(['high', 'medium', 'low'] as const).map((s) => (
          <li key={s} className="legend-layer">
            <span className="legend-swatch legend-swatch-threat" style={zoneSwatchStyle(s)} aria-hidden="true" data-threat-swatch={s} />
            <span>{threatName(s, intl)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
