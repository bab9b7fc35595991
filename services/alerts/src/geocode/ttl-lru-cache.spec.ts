import { TtlLruCache } from './ttl-lru-cache';

describe('TtlLruCache', () => {
  let now = 0;
  const cache = (size: number) => new TtlLruCache<string>(size, 1000, () => now);
  beforeEach(() => (now = 0));

  it('keeps at most `size` entries, dropping the least recently read', () => {
    const c = cache(2);
    c.set('a', 'A');
    c.set('b', 'B');
    expect(c.get('a')).toBe('A'); // now b is the least recently read
    c.set('c', 'C');
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual(['A', undefined, 'C']);
  });

  it('forgets an entry once its time is up', () => {
    const c = cache(2);
    c.set('a', 'A');
    now = 999;
    expect(c.get('a')).toBe('A');
    now = 1000;
    expect(c.get('a')).toBeUndefined();
  });

  it('keeps nothing with size 0', () => {
    const c = cache(0);
    c.set('a', 'A');
    expect(c.get('a')).toBeUndefined();
  });

  it('deleteIf removes the entry only while it holds that value', () => {
    const c = cache(2);
    c.set('a', 'old');
    c.set('a', 'new');
    c.deleteIf('a', 'old');
    expect(c.get('a')).toBe('new');
    c.deleteIf('a', 'new');
    expect(c.get('a')).toBeUndefined();
  });
});
