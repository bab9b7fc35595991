import { scriptedResolver } from '@beacon/testing';
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
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
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

/**
 * Every IPv6 form that carries or stands for a non-public address, and the IANA special-purpose ranges of both
 * families, refused as URL literals and as DNS answers alike; global unicast and NAT64 of a public IPv4 accepted.
 */
describe('special-purpose and embedded-IPv4 addresses', () => {
  const refused: [string, string][] = [
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::169.254.169.254', 'IPv4-compatible metadata service'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated form, never public)'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard-only'],
    ['2001:db8::1', 'documentation'],
    ['2001:10::1', 'ORCHID'],
    ['2001:20::1', 'ORCHIDv2'],
    ['2001:2::1', 'benchmarking'],
    ['3fff::1', 'documentation (3fff::/20)'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'shared address space (CGNAT)'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.1', 'benchmarking'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.1', 'documentation'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::7f00:1', 'IPv4-compatible loopback, as URLs write it'],
    ['::a9fe:a9fe', 'IPv4-compatible metadata service, as URLs write it'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:0.0.0.0', 'IPv4-mapped unspecified'],
    ['::ffff:100.64.0.1', 'IPv4-mapped CGNAT'],
    ['::ffff:224.0.0.1', 'IPv4-mapped multicast'],
    ['::ffff:0:7f00:1', 'IPv4-translated (::ffff:0:0:0/96)'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata service'],
    ['64:ff9b::6440:1', 'NAT64 of CGNAT'],
    ['64:ff9b::c612:1', 'NAT64 of benchmarking'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['2002:c0a8:1::1', '6to4 of 192.168.0.1'],
    ['2002:6440:1::1', '6to4 of CGNAT'],
    ['2002:e000:1::1', '6to4 of multicast'],
    ['2001::1', 'Teredo, any server'],
    ['2001:0:808:808::1', 'Teredo with a public server'],
    ['5f00::1', 'SRv6 SIDs'],
    ['4000::1', 'outside global unicast 2000::/3'],
    ['ff0e::1', 'global-scope multicast'],
    ['0.1.2.3', 'this network (0.0.0.0/8)'],
    ['239.1.1.1', 'administratively scoped multicast'],
    ['192.0.0.170', 'NAT64 discovery (192.0.0.0/24)'],
  ];

  it.each(refused)('refuses %s (%s) as a URL literal', async (address) => {
    const host = address.includes(':') ? `[${address}]` : address;
    await expect(assertPublicUrl(`https://${host}/hook`)).rejects.toMatchObject({ code: 'private_address' });
  });

  it.each(refused)('refuses %s (%s) as a DNS answer', async (address) => {
    const resolve = async () => [{ address, family: address.includes(':') ? 6 : 4 }];
    await expect(assertPublicUrl('https://hook.example/', [], resolve)).rejects.toMatchObject({ code: 'private_address' });
  });

  it.each(refused)('refuses %s (%s) when a name answers it at connect time, after a public answer at the check', async (address) => {
    const resolve = scriptedResolver(['93.184.216.34', address]);
    await expect(assertPublicUrl('https://hook.example/', [], resolve)).resolves.toBeInstanceOf(URL);
    const err = await new Promise((done) => publicLookup('443', { resolve })('hook.example', { all: true }, (e) => done(e)));
    expect(err).toMatchObject({ code: 'private_address' });
    expect(resolve.asked).toEqual(['hook.example', 'hook.example']);
  });

  it.each([
    ['8.8.8.8', 'public IPv4'],
    ['2606:4700:4700::1111', 'global unicast IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['64:ff9b::808:808', 'NAT64 of a public IPv4 (DNS64 networks)'],
    ['2002:808:808::1', '6to4 of a public IPv4'],
  ])('accepts %s (%s)', async (address) => {
    const resolve = async () => [{ address, family: address.includes(':') ? 6 : 4 }];
    await expect(assertPublicUrl('https://hook.example/', [], resolve)).resolves.toBeInstanceOf(URL);
  });
});
