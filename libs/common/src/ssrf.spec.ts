import { assertPublicUrl, publicLookup, rangeOf } from './ssrf';

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

describe('publicLookup', () => {
  type Answer = { err: (Error & { code?: string }) | null; address: unknown; family?: number };
  const lookupWith = (answers: string[], options: { all?: boolean; family?: number } = {}, allowHosts: string[] = []) =>
    new Promise<Answer>((resolve) => {
      const resolver = async () => answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      publicLookup('443', { allowHosts, resolve: resolver })('hook.example', options as never, (err, address, family) => resolve({ err, address, family }));
    });

  it.each(['127.0.0.1', '10.1.2.3', '::1', 'fe80::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1', '169.254.169.254', '0.0.0.0'])(
    'refuses a name that resolves to %s with private_address',
    async (address) => {
      const { err } = await lookupWith([address]);
      expect(err).toMatchObject({ code: 'private_address' });
    },
  );

  it('refuses when any one of the answers is private', async () => {
    expect((await lookupWith(['93.184.216.34', '127.0.0.1'], { all: true })).err).toMatchObject({ code: 'private_address' });
  });

  it('hands a public answer to the socket, one address or all of them', async () => {
    expect(await lookupWith(['93.184.216.34'])).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await lookupWith(['93.184.216.34', '2606:2800:220:1::1'], { all: true })).toEqual({
      err: null,
      address: [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }],
      family: undefined,
    });
    expect(await lookupWith(['93.184.216.34', '2606:2800:220:1::1'], { family: 6 })).toMatchObject({ err: null, address: '2606:2800:220:1::1', family: 6 });
  });

  it('no answer is unresolvable_host', async () => {
    expect((await lookupWith([])).err).toMatchObject({ code: 'unresolvable_host' });
  });

  it('lets an allow-listed host (or host:port) resolve to a private address', async () => {
    expect(await lookupWith(['127.0.0.1'], {}, ['hook.example'])).toMatchObject({ err: null, address: '127.0.0.1' });
    expect(await lookupWith(['127.0.0.1'], {}, ['hook.example:443'])).toMatchObject({ err: null, address: '127.0.0.1' });
    expect((await lookupWith(['127.0.0.1'], {}, ['hook.example:8443'])).err).toMatchObject({ code: 'private_address' });
  });

  it('assertPublicUrl applies the same rule to the same answers', async () => {
    const resolver = (address: string) => async () => [{ address, family: address.includes(':') ? 6 : 4 }];
    await expect(assertPublicUrl('https://hook.example/x', [], resolver('::ffff:192.168.0.1'))).rejects.toMatchObject({ code: 'private_address' });
    await expect(assertPublicUrl('https://hook.example/x', [], resolver('93.184.216.34'))).resolves.toBeInstanceOf(URL);
  });
});
