import { safeRedirect } from './redirects';

describe('safeRedirect', () => {
  const site = 'https://beacon.example';
  const fallback = 'https://beacon.example/reset-password';
  const allow = ['https://m.beacon.example/auth/'];

  it.each([
    ['https://beacon.example/somewhere?x=1', 'https://beacon.example/somewhere?x=1'],
    ['https://m.beacon.example/auth/reset', 'https://m.beacon.example/auth/reset'],
    ['https://m.beacon.example/other', fallback],
    ['https://evil.example/', fallback],
    ['https://beacon.example.evil.example/', fallback],
    ['https://user:pw@beacon.example/', fallback],
    ['javascript:alert(1)', fallback],
    ['//evil.example', fallback],
    ['not a url', fallback],
    [undefined, fallback],
  ])('%s → %s', (candidate, expected) => {
    expect(safeRedirect(candidate, fallback, site, allow)).toBe(expected);
  });
});
