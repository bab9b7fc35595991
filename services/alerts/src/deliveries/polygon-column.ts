/**
 * alerts.alerts.area_polygon (AlertPolygons migration) to and from the ring the code keeps: PostgreSQL's polygon
 * syntax has x = longitude, y = latitude, the ring is [lat, lng] corners.
 */

/** The ring in PostgreSQL's polygon syntax, x = longitude, y = latitude: '((x1,y1),(x2,y2),...)'. */
export const toPgPolygon = (ring: readonly (readonly [number, number])[]): string => `(${ring.map(([lat, lng]) => `(${lng},${lat})`).join(',')})`;

/** A polygon column as node-postgres returns it ('((x1,y1),...)') back into the stored ring. */
export function fromPgPolygon(text: string): [number, number][] {
  const numbers = text.match(/-?[\d.]+(?:e[-+]?\d+)?/gi)!.map(Number);
  const ring: [number, number][] = [];
  for (let i = 0; i + 1 < numbers.length; i += 2) ring.push([numbers[i + 1], numbers[i]]);
  return ring;
}
