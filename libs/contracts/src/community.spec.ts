import { levelFor } from './community';

describe('levels', () => {
  it.each([
    [0, 1, 'Newcomer', 51, 0],
    [25, 1, 'Newcomer', 51, 49],
    [50, 1, 'Newcomer', 51, 98],
    [51, 2, 'Regular', 201, 0],
    [200, 2, 'Regular', 201, 99],
    [201, 3, 'Contributor', 501, 0],
    [500, 3, 'Contributor', 501, 99],
    [501, 4, 'Expert', null, 100],
    [9000, 4, 'Expert', null, 100],
  ])('%i points: level %i %s, next at %s, %i%%', (points, level, levelName, nextLevelAt, progress) => {
    expect(levelFor(points)).toEqual({ points, level, levelName, nextLevelAt, progress, hasRecord: true });
  });

  it("is 'New Member' without a record", () => {
    expect(levelFor(0, false).levelName).toBe('New Member');
  });
});
