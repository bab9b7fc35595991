import { areaParts, emptyReachCounts, REACH_CELL_SIZES_DEG, REACH_STATES, type AlertArea, type ReachCell, type ReachCounts } from '@beacon/contracts';

/*
 * The reach map's grid. Cells are counted in hundredths of a degree (integers) so that a cell's row and column at one
 * size give its row and column at every coarser size exactly (no floating-point edge where a person would fall in a
 * cell whose parent does not contain it). The database counts the people of each cell at the finest size the map
 * starts from (ReachRepository.baseCells); merging the cells too small to show happens here, on those counts only.
 */

/** Each size of REACH_CELL_SIZES_DEG in hundredths of a degree. */
export const CELL_SIZES = REACH_CELL_SIZES_DEG.map((d) => Math.round(d * 100));

/**
 * The most cells the finest size may lay across the alert's area: the answer stays small (a few hundred kB at worst)
 * and the map readable. A town gets 0.01-degree cells (about 1 km), a province 0.2-degree ones.
 */
export const BASE_CELLS_MAX = 4096;

export interface Bounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** The people of one cell, counted by state; `confirmed` are those of `reached` a receipt confirmed. */
export interface CountedCell {
  row: number;
  col: number;
  counts: ReachCounts;
  confirmed: number;
}

const KM_PER_DEGREE = 111.32;

/** The box around every part of an area. A part across the antimeridian spans the whole width (the grid is then coarse). */
export function areaBounds(area: AlertArea): Bounds {
  const boxes = areaParts(area).map((p): Bounds => {
    if (p.type === 'circle') {
      const dLat = p.radiusKm / KM_PER_DEGREE;
      const dLng = Math.min(180, p.radiusKm / (KM_PER_DEGREE * Math.max(Math.cos((p.lat * Math.PI) / 180), 1e-6)));
      return { south: p.lat - dLat, north: p.lat + dLat, west: p.lng - dLng, east: p.lng + dLng };
    }
    const lats = p.points.map(([lat]) => lat);
    const lngs = p.points.map(([, lng]) => lng);
    return { south: Math.min(...lats), north: Math.max(...lats), west: Math.min(...lngs), east: Math.max(...lngs) };
  });
  const b = {
    south: Math.max(-90, Math.min(...boxes.map((x) => x.south))),
    north: Math.min(90, Math.max(...boxes.map((x) => x.north))),
    west: Math.max(-180, Math.min(...boxes.map((x) => x.west))),
    east: Math.min(180, Math.max(...boxes.map((x) => x.east))),
  };
  return b.east - b.west > 180 ? { ...b, west: -180, east: 180 } : b;
}

/**
 * The finest size (an index of CELL_SIZES) that lays at most BASE_CELLS_MAX cells across `bounds`; the coarsest when
 * none does, or when there is nothing to bound (nobody has a home).
 */
export function baseLevel(bounds: Bounds | null): number {
  if (!bounds) return CELL_SIZES.length - 1;
  const index = (deg: number, size: number) => Math.floor(Math.floor(deg * 100) / size);
  const level = CELL_SIZES.findIndex((size) => {
    const rows = index(bounds.north, size) - index(bounds.south, size) + 1;
    const cols = index(bounds.east, size) - index(bounds.west, size) + 1;
    return rows * cols <= BASE_CELLS_MAX;
  });
  return level === -1 ? CELL_SIZES.length - 1 : level;
}

const peopleIn = (c: ReachCounts) => REACH_STATES.reduce((n, s) => n + c[s], 0);

function add(into: ReachCounts, more: ReachCounts) {
  for (const s of REACH_STATES) into[s] += more[s];
}

/** A cell at `level` in degrees, its corners rounded to the grid (no 0.30000000000000004). */
function toCell(c: CountedCell, level: number): ReachCell {
  const size = CELL_SIZES[level];
  const deg = (hundredths: number) => Math.round(hundredths) / 100;
  return {
    id: `${REACH_CELL_SIZES_DEG[level]}:${c.row}:${c.col}`,
    south: deg(c.row * size),
    north: deg((c.row + 1) * size),
    west: deg(c.col * size),
    east: deg((c.col + 1) * size),
    sizeDeg: REACH_CELL_SIZES_DEG[level],
    people: peopleIn(c.counts),
    counts: { ...c.counts },
  };
}

/**
 * The map's cells from the base cells' counts (at CELL_SIZES[level]): a cell of at least `min` people is shown; the
 * people of smaller ones are counted together in the cell of the next size that contains theirs, and so on up to the
 * coarsest size, where those still fewer than `min` are only counted (`elsewhere`). Everyone is counted exactly once:
 * in one cell, or elsewhere. A coarser cell shown may contain finer ones shown; it counts only the rest.
 */
export function mergeCells(base: readonly CountedCell[], level: number, min: number): { cells: ReachCell[]; elsewhere: ReachCounts } {
  const cells: ReachCell[] = [];
  let current: CountedCell[] = base.map((c) => ({ ...c, counts: { ...c.counts } }));
  for (let k = level; k < CELL_SIZES.length; k++) {
    const small: CountedCell[] = [];
    for (const c of current) {
      if (peopleIn(c.counts) >= min) cells.push(toCell(c, k));
      else small.push(c);
    }
    if (k === CELL_SIZES.length - 1) {
      const elsewhere = emptyReachCounts();
      for (const c of small) add(elsewhere, c.counts);
      return { cells, elsewhere };
    }
    // CELL_SIZES[k + 1] is a multiple of CELL_SIZES[k]: the parent's row is an exact integer division
    const ratio = CELL_SIZES[k + 1] / CELL_SIZES[k];
    const parents = new Map<string, CountedCell>();
    for (const c of small) {
      const row = Math.floor(c.row / ratio);
      const col = Math.floor(c.col / ratio);
      const key = `${row}:${col}`;
      const parent = parents.get(key) ?? { row, col, counts: emptyReachCounts(), confirmed: 0 };
      add(parent.counts, c.counts);
      parent.confirmed += c.confirmed;
      parents.set(key, parent);
    }
    current = [...parents.values()];
  }
  return { cells, elsewhere: emptyReachCounts() };
}
