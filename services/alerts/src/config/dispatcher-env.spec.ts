import { ConfigError, loadEnv } from '@beacon/common';
import { DispatcherEnv } from './dispatcher-env.dto';
import { smtpTransportOptions } from '../providers/smtp-relay';

describe('DispatcherEnv', () => {
  it('by default gives a stopping worker longer than its longest channel job (60 + 30 s)', () => {
    const env = loadEnv(DispatcherEnv, {});
    expect(env.SHUTDOWN_GRACE_SECONDS).toBe(120);
    expect(env.SHUTDOWN_GRACE_SECONDS).toBeGreaterThan(env.CHANNEL_BATCH_DEADLINE_SECONDS + env.CHANNEL_SEND_GRACE_SECONDS);
  });

  it('refuses a grace that would cut a channel job short, and says what it must be', () => {
    expect(() => loadEnv(DispatcherEnv, { SHUTDOWN_GRACE_SECONDS: '25' })).toThrow(ConfigError);
    expect(() => loadEnv(DispatcherEnv, { SHUTDOWN_GRACE_SECONDS: '25' })).toThrow(
      'SHUTDOWN_GRACE_SECONDS must be at least CHANNEL_BATCH_DEADLINE_SECONDS + CHANNEL_SEND_GRACE_SECONDS + 10 (100)',
    );
    expect(() => loadEnv(DispatcherEnv, { SHUTDOWN_GRACE_SECONDS: '60', CHANNEL_BATCH_DEADLINE_SECONDS: '50' })).toThrow(/\(90\)/);
  });

  it('accepts a short grace when the channel jobs are short too', () => {
    const env = loadEnv(DispatcherEnv, { SHUTDOWN_GRACE_SECONDS: '25', CHANNEL_BATCH_DEADLINE_SECONDS: '10', CHANNEL_SEND_GRACE_SECONDS: '5' });
    expect(env.SHUTDOWN_GRACE_SECONDS).toBe(25);
  });

  it('re-drives stranded deliveries only after the longest channel job, and says what the threshold must be', () => {
    expect(loadEnv(DispatcherEnv, {}).REDRIVE_AFTER_SECONDS).toBe(300);
    expect(() => loadEnv(DispatcherEnv, { REDRIVE_AFTER_SECONDS: '60' })).toThrow(
      'REDRIVE_AFTER_SECONDS must be at least CHANNEL_BATCH_DEADLINE_SECONDS + CHANNEL_SEND_GRACE_SECONDS + 5 (95)',
    );
    expect(
      loadEnv(DispatcherEnv, { REDRIVE_AFTER_SECONDS: '9', CHANNEL_BATCH_DEADLINE_SECONDS: '2', CHANNEL_SEND_GRACE_SECONDS: '2' }).REDRIVE_AFTER_SECONDS,
    ).toBe(9);
  });

  it('reads the SMTP URL into the pooled transport options, with the pool bound', () => {
    const env = loadEnv(DispatcherEnv, {
      SMTP_URL: 'smtps://alerts%40city.gov:p%2Fss@relay.example.org:2465?ignoreTLS=false&name=beacon',
      EMAIL_MAX_CONNECTIONS: '3',
    });
    expect(smtpTransportOptions(env.SMTP_URL, env.EMAIL_MAX_CONNECTIONS)).toEqual({
      host: 'relay.example.org',
      port: 2465,
      secure: true,
      auth: { user: 'alerts@city.gov', pass: 'p/ss' },
      ignoreTLS: false,
      name: 'beacon',
      pool: true,
      maxConnections: 3,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    expect(smtpTransportOptions('smtp://[::1]:1025', 5)).toMatchObject({ host: '::1', port: 1025, secure: false });
    expect(smtpTransportOptions('smtp://relay.example.org', 5)).not.toHaveProperty('port');
  });
});
