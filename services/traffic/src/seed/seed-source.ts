/** The `source` of the demo data shipped in this folder. A real 511 source may never use this name. */
export const SEED_SOURCE = 'seed';
