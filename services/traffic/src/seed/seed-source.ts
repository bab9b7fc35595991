/** The `source` of the demo data shipped in this folder. A real 511 source may never use this name. */
export const SEED_SOURCE = 'seed';

/** Where the traffic service draws a seeded camera's snapshot (cameras/camera-images.controller.ts). */
export const seedSnapshotPath = (sourceId: string) => `/api/traffic/camera-images/${sourceId}.svg`;
