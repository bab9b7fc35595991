import { addressRefusals, channelProblem } from './channel-readiness';

const settings = (o: { webhook?: string; relay?: string; smsOn?: boolean; emailOn?: boolean } = {}) => ({
  webhook: { enabled: o.smsOn ?? true, url: o.webhook ?? '' },
  email: { enabled: o.emailOn ?? true, url: o.relay ?? 'smtp://8.8.8.8:587', from: 'Beacon <alerts@example.org>' },
});

describe('channel readiness: the address rule the senders apply', () => {
  it('calls a relay or a webhook on a loopback or private address a refused address, as the sender would refuse it', async () => {
    const s = settings({ relay: 'smtp://127.0.0.1:1025', webhook: 'http://10.0.0.5/hook' });
    const refused = await addressRefusals(s, []);
    expect(refused).toEqual({
      email: 'The mail relay in Admin Settings is a refused address (the URL points at a loopback address, which is not allowed)',
      sms: 'The SMS webhook URL in Admin Settings is a refused address (the URL points at a private address, which is not allowed)',
    });
    expect(channelProblem({ ...s, refused }, 'email')).toBe(refused.email);
    expect(channelProblem({ ...s, refused }, 'sms')).toBe(refused.sms);
    expect(channelProblem({ ...s, refused }, 'push')).toBeNull();
  });

  it('accepts public and allow-listed addresses (host or host:port, as WEBHOOK_ALLOW_HOSTS reads)', async () => {
    expect(await addressRefusals(settings({ webhook: 'https://8.8.4.4/hook' }), [])).toEqual({ sms: null, email: null });
    expect(await addressRefusals(settings({ relay: 'smtp://127.0.0.1:1025', webhook: 'http://127.0.0.1:5678/hook' }), ['127.0.0.1:1025', '127.0.0.1'])).toEqual(
      {
        sms: null,
        email: null,
      },
    );
    // the port is part of an entry: another port of the same host is still refused
    expect((await addressRefusals(settings({ relay: 'smtp://127.0.0.1:25' }), ['127.0.0.1:1025'])).email).toMatch(/refused address/);
  });

  it('refuses a relay URL the sender cannot use (an option outside its allow-list) in the sender’s words', async () => {
    const { email } = await addressRefusals(settings({ relay: 'smtp://8.8.8.8:587?proxy=http://10.0.0.1' }), []);
    expect(email).toMatch(/^The mail relay in Admin Settings is refused \(the SMTP URL may not set "proxy"/);
  });

  it('checks nothing for a channel turned off or without a URL: channelProblem already says why', async () => {
    const off = settings({ relay: 'smtp://127.0.0.1:1025', webhook: 'http://10.0.0.5/hook', smsOn: false, emailOn: false });
    expect(await addressRefusals(off, [])).toEqual({ sms: null, email: null });
    expect(channelProblem(off, 'email')).toBe('E-mail is turned off in Admin Settings');
    expect(channelProblem(off, 'sms')).toBe('The SMS webhook is turned off in Admin Settings');
    expect(channelProblem(settings(), 'sms')).toBe('No SMS webhook URL is set in Admin Settings');
    // settings read before the check (no `refused`): only the switches and the URL decide
    expect(channelProblem(settings({ relay: 'smtp://127.0.0.1:1025' }), 'email')).toBeNull();
  });

  it('a host name is refused by what it resolves to, and when it resolves to nothing', async () => {
    const { email, sms } = await addressRefusals(settings({ relay: 'smtp://localhost:25', webhook: 'http://localhost:5678/hook' }), []);
    expect(email).toMatch(/^The mail relay in Admin Settings is a refused address \(the URL points at a loopback address/);
    expect(sms).toMatch(/^The SMS webhook URL in Admin Settings is a refused address \(the URL points at a loopback address/);
    const unresolved = await addressRefusals(settings({ relay: 'smtp://no-such-host.invalid:25' }), []);
    expect(unresolved.email).toBe('The mail relay in Admin Settings is refused (the host no-such-host.invalid could not be resolved)');
  });
});
