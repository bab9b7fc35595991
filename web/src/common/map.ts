/** The spec's default map area (Phoenix): where every map opens before anything is chosen. */
export const DEFAULT_MAP_CENTER = { lat: 33.4484, lng: -112.074 } as const;
