/**
 * SQL fragments for radius queries with earthdistance. Both sides go through incidents.geo_point(), the
 * expression the GiST indexes are built on, so `earth_box @>` is answered from the index and
 * `earth_distance` only refines the few candidates at the box's corners.
 */
export function withinRadius(alias: string, latParam: string, lngParam: string, metresParam: string): string {
  const origin = `incidents.geo_point(${latParam}, ${lngParam})`;
  const point = `incidents.geo_point(${alias}.lat, ${alias}.lng)`;
  return `public.earth_box(${origin}, ${metresParam}) @> ${point} AND public.earth_distance(${origin}, ${point}) <= ${metresParam}`;
}

export function distanceFrom(alias: string, latParam: string, lngParam: string): string {
  return `public.earth_distance(incidents.geo_point(${latParam}, ${lngParam}), incidents.geo_point(${alias}.lat, ${alias}.lng))`;
}
