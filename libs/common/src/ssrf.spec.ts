import { assertPublicUrl, rangeOf } from './ssrf';

describe('assertPublicUrl', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://localhost:9000/hook',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
  ])('refuses %s', async (url) => {
    await expect(assertPublicUrl(url)).rejects.toMatchObject({ code: expect.stringMatching(/private_address|unresolvable_host/) });
  });

  it('refuses other schemes and embedded credentials', async () => {
    await expect(assertPublicUrl('file:///etc/passwd')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(assertPublicUrl('http://user:pw@8.8.8.8/')).rejects.toMatchObject({ code: 'invalid_url' });
  });

  it('accepts a public address and an allow-listed private host', async () => {
    await expect(assertPublicUrl('https://8.8.8.8/hook')).resolves.toBeInstanceOf(URL);
    await expect(assertPublicUrl('http://127.0.0.1:9000/hook', ['127.0.0.1'])).resolves.toBeInstanceOf(URL);
  });

  it('classifies ranges', () => {
    expect(rangeOf('8.8.8.8')).toBe('unicast');
    expect(rangeOf('::ffff:10.0.0.1')).toBe('private');
  });
});
