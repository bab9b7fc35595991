import { useId } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { areaParts, type AlertAreaPart, type AlertSummary } from '@beacon/contracts';
import { currentIntl, defineMessages } from '@/i18n';
import { LazyAreaMap } from './LazyAreaMap';

const AREA_WORDS = defineMessages({
  polygon: {
    id: 'alerts.area.polygon',
    defaultMessage: '{corners, plural, one {Drawn area (polygon with # corner)} other {Drawn area (polygon with # corners)}}',
  },
  circle: { id: 'alerts.area.circle', defaultMessage: '{radius} around {lat}, {lng}' },
  everywhere: { id: 'alerts.area.everywhere', defaultMessage: 'Everywhere' },
  mapLabel: { id: 'alerts.area.mapLabel', defaultMessage: 'Area of the alert {title}' },
  named: { id: 'alerts.area.named', defaultMessage: '{name}: {shape}' },
  multi: { id: 'alerts.area.multi', defaultMessage: '{count, plural, one {# area} other {# areas}}: {names}' },
  part: { id: 'alerts.area.part', defaultMessage: 'Part {number}' },
});

/** One circle or polygon in words: a polygon's corner count, a circle's radius and centre. */
function shapeText(part: AlertAreaPart, intl: IntlShape): string {
  if (part.type === 'polygon') return intl.formatMessage(AREA_WORDS.polygon, { corners: part.points.length - 1 });
  const radius = intl.formatNumber(part.radiusKm, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 3 });
  return intl.formatMessage(AREA_WORDS.circle, { radius, lat: String(part.lat), lng: String(part.lng) });
}

/**
 * An alert's area in words: a polygon's corner count, a circle's radius and centre (after its name, when it has one),
 * several parts by their names ("3 areas: Kings County, Hants County and Part 3"), or everyone. The radius is in
 * kilometres, the unit the admins draw and send alerts in; the coordinates as they are stored.
 */
export function areaText(a: Pick<AlertSummary, 'area'>, intl: IntlShape = currentIntl()): string {
  if (!a.area) return intl.formatMessage(AREA_WORDS.everywhere);
  const parts = areaParts(a.area);
  if (parts.length === 1) {
    const shape = shapeText(parts[0], intl);
    const name = parts[0].description?.trim();
    return name ? intl.formatMessage(AREA_WORDS.named, { name, shape }) : shape;
  }
  const names = parts.map((p, i) => p.description?.trim() || intl.formatMessage(AREA_WORDS.part, { number: i + 1 }));
  return intl.formatMessage(AREA_WORDS.multi, { count: parts.length, names: intl.formatList(names, { type: 'conjunction' }) });
}

/**
 * An alert's area on a map (the user's and the admin's alert detail): every circle and polygon of it, fitted into view
 * together, and the area in words for screen readers; nothing without an area.
 */
export function AlertAreaMap({ alert }: { alert: Pick<AlertSummary, 'area' | 'title'> }) {
  const intl = useIntl();
  const id = useId();
  const area = alert.area;
  if (!area) return null;
  const label = intl.formatMessage(AREA_WORDS.mapLabel, { title: alert.title });
  return (
    <div className="alert-area-map">
      <LazyAreaMap center={null} radiusKm={0} parts={areaParts(area)} label={label} describedBy={`${id}-words`} />
      <p id={`${id}-words`} className="visually-hidden">
        {areaText(alert, intl)}
      </p>
    </div>
  );
}
