import { emptyReachCounts, REACH_STATES, type ReachCounts } from '@beacon/contracts';
import { areaBounds, BASE_CELLS_MAX, baseLevel, CELL_SIZES, mergeCells, type CountedCell } from './reach-grid';

const counts = (o: Partial<ReachCounts>): ReachCounts => ({ ...emptyReachCounts(), ...o });
const cell = (row: number, col: number, o: Partial<ReachCounts>): CountedCell => ({ row, col, counts: counts(o), confirmed: 0 });
const sum = (cs: ReachCounts[]) => cs.reduce((t, c) => counts(Object.fromEntries(REACH_STATES.map((s) => [s, t[s] + c[s]]))), emptyReachCounts());

describe('the reach grid', () => {
  it('shows a cell of at least the minimum as it is, at its size, with its corners on the grid', () => {
    // 0.01-degree cell of Tempe (row 3342 = 33.42 N, column -11194 = 111.94 W)
    const { cells, elsewhere } = mergeCells([cell(3342, -11194, { reached: 3, pending: 2 })], 0, 5);
    expect(cells).toEqual([
      {
        id: '0.01:3342:-11194',
        south: 33.42,
        north: 33.43,
        west: -111.94,
        east: -111.93,
        sizeDeg: 0.01,
        people: 5,
        counts: counts({ reached: 3, pending: 2 }),
      },
    ]);
    expect(elsewhere).toEqual(emptyReachCounts());
  });

  it('merges cells below the minimum into the cell of the next size that contains them, never showing fewer', () => {
    // four 0.01 cells of 2 people each, all in the 0.05 cell (668, -2239): 8 people there, shown at 0.05
    const small = [
      cell(3340, -11194, { reached: 2 }),
      cell(3341, -11193, { failed: 2 }),
      cell(3343, -11191, { pending: 2 }),
      cell(3344, -11195, { needs_help: 2 }),
    ];
    const big = cell(3342, -11194, { reached: 6 });
    const { cells, elsewhere } = mergeCells([...small, big], 0, 5);
    expect(cells.map((c) => [c.id, c.people])).toEqual([
      ['0.01:3342:-11194', 6],
      ['0.05:668:-2239', 8],
    ]);
    expect(cells[1]).toMatchObject({
      south: 33.4,
      north: 33.45,
      west: -111.95,
      east: -111.9,
      counts: counts({ reached: 2, failed: 2, pending: 2, needs_help: 2 }),
    });
    expect(elsewhere).toEqual(emptyReachCounts());
  });

  it('counts only, with no place, the people still too few at the coarsest size', () => {
    const lonely = [cell(3342, -11194, { reached: 1 }), cell(-3386, 15120, { failed: 2 })];
    const { cells, elsewhere } = mergeCells(lonely, 0, 5);
    expect(cells).toEqual([]);
    expect(elsewhere).toEqual(counts({ reached: 1, failed: 2 }));
  });

  it('puts a cell in the right parent on both sides of the equator and of Greenwich', () => {
    // rows -1 and 0 are in different 0.05 cells (-1 and 0), never merged together
    const { cells } = mergeCells([cell(-1, -1, { reached: 3 }), cell(0, 0, { reached: 3 }), cell(-4, -3, { reached: 3 })], 0, 5);
    expect(cells.map((c) => c.id)).toEqual(['0.05:-1:-1']);
    expect(cells[0]).toMatchObject({ south: -0.05, north: 0, west: -0.05, east: 0, people: 6 });
  });

  it('counts every person exactly once and never shows a cell below the minimum, whatever the spread', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 50; run++) {
      const base: CountedCell[] = [];
      const seen = new Set<string>();
      for (let i = 0; i < 200; i++) {
        const row = Math.floor(random() * 400) - 200 + 3300;
        const col = Math.floor(random() * 400) - 200 - 11200;
        if (seen.has(`${row}:${col}`)) continue;
        seen.add(`${row}:${col}`);
        base.push(cell(row, col, { [REACH_STATES[Math.floor(random() * 4)]]: 1 + Math.floor(random() * 6) }));
      }
      const { cells, elsewhere } = mergeCells(base, 0, 5);
      expect(cells.filter((c) => c.people < 5 || c.people !== REACH_STATES.reduce((n, s) => n + c.counts[s], 0))).toEqual([]);
      expect(sum([...cells.map((c) => c.counts), elsewhere])).toEqual(sum(base.map((c) => c.counts)));
      expect(new Set(cells.map((c) => c.id)).size).toBe(cells.length);
    }
  });

  it('starts at a size fit for the area: about a kilometre for a town, coarser for a province', () => {
    const town = areaBounds({ type: 'circle', lat: 33.4255, lng: -111.94, radiusKm: 10 });
    expect(CELL_SIZES[baseLevel(town)]).toBe(1);
    const province = areaBounds({ type: 'circle', lat: 45.5, lng: -63.5, radiusKm: 294 });
    expect(CELL_SIZES[baseLevel(province)]).toBe(20);
    // the world, or nobody to place: the coarsest
    expect(baseLevel({ south: -90, north: 90, west: -180, east: 180 })).toBe(CELL_SIZES.length - 1);
    expect(baseLevel(null)).toBe(CELL_SIZES.length - 1);
    // 61 x 61 cells of 0.01 degree fit under BASE_CELLS_MAX; 71 x 71 do not
    const polygon = (d: number) =>
      areaBounds({
        type: 'polygon',
        points: [
          [33, -112],
          [33 + d, -112],
          [33 + d, -112 + d],
          [33, -112],
        ],
      });
    expect(polygon(0.6)).toEqual({ south: 33, north: 33.6, west: -112, east: -111.4 });
    expect(61 * 61 <= BASE_CELLS_MAX && 71 * 71 > BASE_CELLS_MAX).toBe(true);
    expect(CELL_SIZES[baseLevel(polygon(0.6))]).toBe(1);
    expect(CELL_SIZES[baseLevel(polygon(0.7))]).toBe(5);
  });

  it('bounds every part of a multi-area', () => {
    const b = areaBounds({
      type: 'multi',
      parts: [
        {
          type: 'polygon',
          points: [
            [44, -66],
            [44.5, -66],
            [44.5, -65],
            [44, -66],
          ],
        },
        { type: 'circle', lat: 46, lng: -63, radiusKm: 11.132 },
      ],
    });
    expect(b.south).toBe(44);
    expect(b.west).toBe(-66);
    expect(b.north).toBeCloseTo(46.1, 6);
    expect(b.east).toBeGreaterThan(-63);
  });
});
