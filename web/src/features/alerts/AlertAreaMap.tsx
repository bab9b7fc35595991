import type { AlertSummary } from '@beacon/contracts';
import { LazyAreaMap } from './LazyAreaMap';

/** An alert's area in words: a polygon's corner count, a circle's radius and centre, or everyone. */
export function areaText(a: Pick<AlertSummary, 'area'>): string {
  if (a.area?.type === 'polygon') return `Drawn area (polygon with ${a.area.points.length - 1} corners)`;
  if (a.area?.type === 'circle') return `${a.area.radiusKm} km around ${a.area.lat}, ${a.area.lng}`;
  return 'Everywhere';
}

/** An alert's area on a map (the user's and the admin's alert detail): its circle or its drawn polygon; nothing without one. */
export function AlertAreaMap({ alert }: { alert: Pick<AlertSummary, 'area' | 'title'> }) {
  const area = alert.area;
  if (!area) return null;
  const label = `Area of the alert ${alert.title}`;
  return area.type === 'polygon' ? (
    <LazyAreaMap center={null} radiusKm={0} polygon={area.points} label={label} />
  ) : (
    <LazyAreaMap center={{ lat: area.lat, lng: area.lng }} radiusKm={area.radiusKm} label={label} />
  );
}
