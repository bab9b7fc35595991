import { randomBytes } from 'node:crypto';
import { IncidentsEnv } from '../config/env.dto';
import { PhotoUrls } from './photo-urls';

const PATH = 'incident-photos/0b9f3c1e-5d2a-4e8b-9c1d-2f3a4b5c6d7e/1763800000000-0123456789abcdef0123456789abcdef.jpg';

describe('PhotoUrls', () => {
  let now = 1_800_000_000;
  const env = Object.assign(new IncidentsEnv(), { INCIDENTS_PHOTO_URL_TTL_SECONDS: 3600 });
  const urls = new PhotoUrls(randomBytes(32), env, () => now);
  const parts = (url: string) => {
    const u = new URL(url, 'http://x');
    return { path: u.pathname.replace('/api/incidents/uploads/', ''), expires: u.searchParams.get('expires')!, signature: u.searchParams.get('token')! };
  };

  beforeEach(() => (now = 1_800_000_000));

  it('a published photo has the plain URL', () => {
    expect(urls.plain(PATH)).toBe(`/api/incidents/uploads/${PATH}`);
  });

  it('a signed URL holds for between the TTL and twice the TTL, then stops', () => {
    const { path, expires, signature } = parts(urls.signed(PATH));
    expect(path).toBe(PATH);
    const left = urls.verify(path, expires, signature)!;
    expect(left).toBeGreaterThanOrEqual(3600);
    expect(left).toBeLessThanOrEqual(7200);
    now += left - 1;
    expect(urls.verify(path, expires, signature)).toBe(1);
    now += 1;
    expect(urls.verify(path, expires, signature)).toBeNull();
  });

  it('gives the same URL throughout one window, so browsers can cache the photo', () => {
    now = 1_800_000_000 - (1_800_000_000 % 3600);
    const first = urls.signed(PATH);
    now += 3599;
    expect(urls.signed(PATH)).toBe(first);
    now += 1;
    expect(urls.signed(PATH)).not.toBe(first);
  });

  it('refuses another path, another expiry, another key, and junk', () => {
    const { expires, signature } = parts(urls.signed(PATH));
    expect(urls.verify(PATH.replace('.jpg', '.png'), expires, signature)).toBeNull();
    expect(urls.verify(PATH, String(Number(expires) + 3600), signature)).toBeNull();
    const other = new PhotoUrls(randomBytes(32), env, () => now);
    expect(other.verify(PATH, expires, signature)).toBeNull();
    for (const [e, s] of [
      [undefined, signature],
      [expires, undefined],
      [[expires], signature],
      [expires, [signature]],
      ['1e12', signature],
      [expires, ''],
    ]) {
      expect(urls.verify(PATH, e, s)).toBeNull();
    }
  });
});
