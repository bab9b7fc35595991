import 'reflect-metadata';
import { cacheControlFor, pickEncoding } from './edge';

describe('pickEncoding (Accept-Encoding against the precompressed copies on disk)', () => {
  it.each([
    ['gzip, deflate, br', ['br', 'gzip'], 'br'],
    ['gzip, deflate, br, zstd', ['br', 'gzip'], 'br'],
    ['gzip', ['br', 'gzip'], 'gzip'],
    ['GZIP', ['br', 'gzip'], 'gzip'],
    ['x-gzip', ['br', 'gzip'], 'gzip'],
    ['br;q=0.5, gzip;q=0.8', ['br', 'gzip'], 'gzip'],
    ['br;q=0, gzip', ['br', 'gzip'], 'gzip'],
    ['*', ['br', 'gzip'], 'br'],
    ['*;q=0.1, br;q=0', ['br', 'gzip'], 'gzip'],
    ['gzip, br', ['gzip'], 'gzip'],
  ] as const)('%s with %j on disk -> %s', (header, available, expected) => {
    expect(pickEncoding(header, available)).toBe(expected);
  });

  it.each([
    [undefined, ['br', 'gzip']],
    ['', ['br', 'gzip']],
    ['identity', ['br', 'gzip']],
    ['deflate', ['br', 'gzip']],
    ['gzip;q=0, br;q=0', ['br', 'gzip']],
    ['*;q=0', ['br', 'gzip']],
    ['gzip, br', []],
  ] as const)('%j with %j on disk -> the file as it is', (header, available) => {
    expect(pickEncoding(header, available)).toBeNull();
  });
});

describe('cacheControlFor', () => {
  it('keeps hashed assets for a year, immutable', () => {
    expect(cacheControlFor('/assets/index-DzAnQb69.js')).toBe('public, max-age=31536000, immutable');
  });

  it.each(['/index.html', '/push-sw.js', '/manifest.webmanifest', '/offline.html'])('revalidates %s on every use', (path) => {
    expect(cacheControlFor(path)).toBe('no-cache');
  });

  it('keeps the icons for an hour', () => {
    expect(cacheControlFor('/icon-192.png')).toBe('public, max-age=3600');
  });
});
