import { useIntl, type IntlShape } from 'react-intl';
import type { AlertSummary } from '@beacon/contracts';
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
});

/**
 * An alert's area in words: a polygon's corner count, a circle's radius and centre, or everyone. The radius is in
 * kilometres, the unit the admins draw and send alerts in; the coordinates as they are stored.
 */
export function areaText(a: Pick<AlertSummary, 'area'>, intl: IntlShape = currentIntl()): string {
  if (a.area?.type === 'polygon') return intl.formatMessage(AREA_WORDS.polygon, { corners: a.area.points.length - 1 });
  if (a.area?.type === 'circle') {
    const radius = intl.formatNumber(a.area.radiusKm, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 3 });
    return intl.formatMessage(AREA_WORDS.circle, { radius, lat: String(a.area.lat), lng: String(a.area.lng) });
  }
  return intl.formatMessage(AREA_WORDS.everywhere);
}

/** An alert's area on a map (the user's and the admin's alert detail): its circle or its drawn polygon; nothing without one. */
export function AlertAreaMap({ alert }: { alert: Pick<AlertSummary, 'area' | 'title'> }) {
  const intl = useIntl();
  const area = alert.area;
  if (!area) return null;
  const label = intl.formatMessage(AREA_WORDS.mapLabel, { title: alert.title });
  return area.type === 'polygon' ? (
    <LazyAreaMap center={null} radiusKm={0} polygon={area.points} label={label} />
  ) : (
    <LazyAreaMap center={{ lat: area.lat, lng: area.lng }} radiusKm={area.radiusKm} label={label} />
  );
}
