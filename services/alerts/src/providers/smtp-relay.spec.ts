import nodemailer from 'nodemailer';
import { AppError } from '@beacon/common';
import { guardedSmtpOptions, smtpTransportOptions } from './smtp-relay';
import { EmailSender } from '../channels/email.sender';
import { BatchRefused } from '../channels/channel-batch.runner';
import type { SettingsRepository } from '../settings/settings.repository';
import type { DispatcherEnv } from '../config/dispatcher-env.dto';

const RELAY = 'smtp://relay:secret@127.0.0.1:2525/';
const allow = ['127.0.0.1:2525'];

/** nodemailer honours `url`, `proxy`, `sendmail`/`path`/`args`, `service` ...: none of them may come from the URL. */
const HOSTILE = [
  '?url=smtp%3A%2F%2F10.0.0.5%3A6390',
  '?proxy=http://10.0.0.5:3128',
  '?sendmail=true&path=/bin/sh',
  '?service=gmail',
  '?host=10.0.0.5',
  '?tls.ca=x',
];

describe('the relay URL query string', () => {
  it.each(HOSTILE)('refuses %s with 400 smtp_option_not_allowed, before resolving anything', async (query) => {
    const refusal = guardedSmtpOptions(`${RELAY}${query}`, 1, allow);
    await expect(refusal).rejects.toBeInstanceOf(AppError);
    await expect(refusal).rejects.toMatchObject({ code: 'smtp_option_not_allowed' });
  });

  it('reads the allowed options by type, the tls ones into tls', () => {
    const query = '?requireTLS=true&ignoreTLS=false&name=beacon.example.org&authMethod=LOGIN&tls.rejectUnauthorized=false&tls.minVersion=TLSv1.3';
    expect(smtpTransportOptions(`${RELAY}${query}`, 1)).toMatchObject({
      requireTLS: true,
      ignoreTLS: false,
      name: 'beacon.example.org',
      authMethod: 'LOGIN',
      tls: { rejectUnauthorized: false, minVersion: 'TLSv1.3' },
    });
  });

  it('keeps the tls options beside the servername the guard adds for a host name', async () => {
    const options = await guardedSmtpOptions('smtp://localhost:2525/?tls.rejectUnauthorized=false', 1, ['localhost:2525']);
    expect(options.tls).toEqual({ rejectUnauthorized: false, servername: 'localhost' });
  });

  it.each([
    ['?requireTLS=1', 'requireTLS must be true or false'],
    ['?authMethod=NTLM', 'authMethod must be one of'],
    ['?name=a%20b', 'name must be a host name'],
  ])('refuses %s with 400 invalid_url: %s', (query, message) => {
    expect(() => smtpTransportOptions(`${RELAY}${query}`, 1)).toThrow(
      expect.objectContaining({ code: 'invalid_url', message: expect.stringContaining(message) }),
    );
  });
});

describe('sending through a stored relay URL with a disallowed option', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each(HOSTILE)('refuses the batch for good (%s) and never builds a transport', async (query) => {
    const createTransport = jest.spyOn(nodemailer, 'createTransport');
    const settings = { get: async () => ({ email: { enabled: true, url: `${RELAY}${query}`, from: 'a@b.c' }, webhook: { enabled: false, url: '' } }) };
    const env = { EMAIL_MAX_CONNECTIONS: 1, webhookAllowHosts: allow } as unknown as DispatcherEnv;
    const sender = new EmailSender(settings as unknown as SettingsRepository, {} as never, env, { recordError: async () => undefined } as never);
    const sent = sender.send([], {} as never, { deadline: Date.now() + 1000 } as never, () => undefined as never);
    await expect(sent).rejects.toBeInstanceOf(BatchRefused);
    await expect(sent).rejects.toThrow(/mail relay refused: The SMTP URL may not set/);
    expect(createTransport).not.toHaveBeenCalled();
  });
});
